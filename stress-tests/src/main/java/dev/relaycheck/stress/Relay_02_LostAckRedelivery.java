package dev.relaycheck.stress;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.Held;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RowStatus;
import dev.relaycheck.stress.support.Catalogue;
import dev.relaycheck.stress.support.RelayRace;
import dev.relaycheck.stress.support.World;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

import java.util.List;
import java.util.Map;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Hazard: the EVENT-61 case under real threads. EVENT-61 takes 4 units of SKU-29 (stock 10). p1 delivered it
 * (the consumer committed marker + stock 10 -> 6) but its acknowledgement was lost, so the row stays PENDING
 * under p1's lease until it expires. Two pollers then race to redeliver it: exactly one re-claims, the
 * consumer answers its redelivery DUPLICATE without touching stock, and its ack marks the row DELIVERED.
 * Final: stock 6, exactly one marker, row DELIVERED.
 *
 * <p>Outcome {@code r1, r2, r3, r4, r5}: the token p2 re-claimed with (0: none), the token p3 re-claimed
 * with, final stock of SKU-29, applied_event markers written for EVENT-61, row DELIVERED (1) or not (0).
 *
 * <p>Run just this harness (report in results/jcstress/Relay_02_LostAckRedelivery.txt):
 * <pre>java -cp stress-tests/target/jcstress.jar dev.relaycheck.stress.Curriculum --tests Relay_02 --out results/jcstress</pre>
 *
 * <p>Typical quick-mode result: {@code Correct} sees {@code 2, 0, 6, 1, 1} and {@code 0, 2, 6, 1, 1};
 * {@code NewIdOnRetry} (a fresh message id per attempt) always ends at stock 2 with two markers.
 */
@Description("EVENT-61: committed, ack lost, two pollers race to redeliver; stock 6, one marker, DELIVERED")
@Outcome(id = "2, 0, 6, 1, 1", expect = ACCEPTABLE_INTERESTING,
        desc = "p2 re-claimed with t2, its redelivery was answered DUPLICATE, its ack delivered the row")
@Outcome(id = "0, 2, 6, 1, 1", expect = ACCEPTABLE_INTERESTING,
        desc = "p3 re-claimed with t2, its redelivery was answered DUPLICATE, its ack delivered the row")
@Outcome(id = "[1-9]\\d*, [1-9]\\d*, .*", expect = FORBIDDEN,
        desc = "both pollers re-claimed EVENT-61 while the other's lease was live (SINGLE_LIVE_LEASE)")
@Outcome(id = "\\d+, \\d+, 2, .*", expect = FORBIDDEN,
        desc = "the redelivery applied EVENT-61 again: stock 2 (EFFECT_AT_MOST_ONCE)")
@Outcome(id = "\\d+, \\d+, 6, 1, 0", expect = FORBIDDEN, desc = "EVENT-61 was left PENDING: nobody redelivered it (EVENTUAL_DELIVERY)")
@Outcome(expect = FORBIDDEN, desc = "any other outcome (no invariant named: a state this harness does not expect at all)")
public class Relay_02_LostAckRedelivery {

    static final String EVENT = "EVENT-61";
    static final String SKU = "SKU-29";
    static final World WORLD = new World(List.of(new Event(EVENT, SKU, 1, 4)), Map.of(SKU, 10), 2);

    /** p1 delivered EVENT-61 (stock 6), its ack was lost, its lease has expired. */
    public abstract static class Race extends RelayRace {

        Race(Subject subject) {
            super(subject);
            long t1 = claimOne("p1");
            deliver(EVENT, t1);
            store.tick();
            store.tick();
        }

        /** A poller's whole turn: re-claim, redeliver, ack; the token it got (0: none). */
        int redeliver(String poller) {
            long token = claimOne(poller);
            if (token > 0) {
                process(new Held(EVENT, token));
            }
            return (int) token;
        }

        void finalState(IIIII_Result r) {
            r.r3 = store.stock(SKU);
            r.r4 = (int) store.state().consumer().markerCountFor(EVENT);
            r.r5 = store.row(EVENT).status() == RowStatus.DELIVERED ? 1 : 0;
        }
    }

    @JCStressTest
    @JCStressMeta(Relay_02_LostAckRedelivery.class)
    @State
    public static class Correct extends Race {
        public Correct() {
            super(WORLD.with(Catalogue.correct()));
        }

        @Actor
        public void p2(IIIII_Result r) {
            r.r1 = redeliver("p2");
        }

        @Actor
        public void p3(IIIII_Result r) {
            r.r2 = redeliver("p3");
        }

        @Arbiter
        public void end(IIIII_Result r) {
            finalState(r);
        }
    }

    /** new-id-on-retry: every delivery attempt carries a fresh message id, so the marker never matches. */
    @JCStressTest
    @JCStressMeta(Relay_02_LostAckRedelivery.class)
    @State
    public static class NewIdOnRetry extends Race {
        private static final RelayLogic LOGIC = Catalogue.logic("new-id-on-retry");

        public NewIdOnRetry() {
            super(WORLD.with(LOGIC));
        }

        @Actor
        public void p2(IIIII_Result r) {
            r.r1 = redeliver("p2");
        }

        @Actor
        public void p3(IIIII_Result r) {
            r.r2 = redeliver("p3");
        }

        @Arbiter
        public void end(IIIII_Result r) {
            finalState(r);
        }
    }

    /**
     * The user's target (relaycheck stress --logic CLASS and/or --store CLASS, --classpath JAR): their logic in the
     * shipped store, or their own store, loaded in this forked JVM from the user's jar named by system properties.
     * It never falls back: if the classes cannot be loaded the state cannot be built and the test errors out.
     */
    @JCStressTest
    @JCStressMeta(Relay_02_LostAckRedelivery.class)
    @State
    public static class User extends Race {
        public User() {
            super(WORLD.ofUser());
        }

        @Actor
        public void p2(IIIII_Result r) {
            r.r1 = redeliver("p2");
        }

        @Actor
        public void p3(IIIII_Result r) {
            r.r2 = redeliver("p3");
        }

        @Arbiter
        public void end(IIIII_Result r) {
            finalState(r);
        }
    }
}
