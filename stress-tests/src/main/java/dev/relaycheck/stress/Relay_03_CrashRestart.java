package dev.relaycheck.stress;

import dev.relaycheck.model.ConsumerState;
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

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Hazard: a poller crashes while holding a batch. Its rows stay leased until the lease expires; then another
 * poller must re-claim and deliver them. Nothing may be lost (a row DELIVERED without its effect, or stuck
 * under a lease that never expires) and nothing doubled (the crashed poller's in-flight delivery and the
 * successor's redelivery race at the consumer, which must absorb one of them).
 *
 * <p>Set-up: p1 claimed E1 (SKU-1) and E2 (SKU-2) in one batch at time 0, lease 1 tick. Actor p1 takes one
 * step on E1 (deliver, or ack for a logic that acks first) and crashes: it never acks and never touches E2.
 * Actor p2 ticks the clock, re-claims what it can (batch 2), delivers and acks it. Outcome
 * {@code r1, r2, r3, r4, r5}: p1's last step (1 APPLIED, 2 DUPLICATE, 3 ack accepted, 4 ack rejected), rows
 * p2 re-claimed, rows DELIVERED at the end, times E1's effect was applied, times E2's effect was applied.
 *
 * <p>Run just this harness (report in results/jcstress/Relay_03_CrashRestart.txt):
 * <pre>java -cp stress-tests/target/jcstress.jar dev.relaycheck.stress.Curriculum --tests Relay_03 --out results/jcstress</pre>
 *
 * <p>Typical quick-mode result: {@code Correct} sees {@code 1, 2, 2, 1, 1} and, less often,
 * {@code 2, 2, 2, 1, 1}; {@code LeaseNeverExpires} always {@code 1, 0, 0, 1, 0}; {@code AckBeforeDeliver}
 * mostly {@code 3, 1, 2, 0, 1} (E1 DELIVERED, its effect lost).
 */
@Description("a poller crashes holding a lease; after expiry another delivers; nothing lost, nothing doubled")
@Outcome(id = "1, 2, 2, 1, 1", expect = ACCEPTABLE_INTERESTING,
        desc = "p1 applied E1 and crashed; p2 re-claimed both after expiry, its E1 redelivery was absorbed")
@Outcome(id = "2, 2, 2, 1, 1", expect = ACCEPTABLE_INTERESTING,
        desc = "p2's redelivery of E1 committed first; the crashing p1's in-flight delivery was answered DUPLICATE")
@Outcome(id = "4, 2, 2, 1, 1", expect = ACCEPTABLE,
        desc = "p1's early ack came after p2's re-claim and was rejected; p2 delivered both")
@Outcome(id = "\\d, 0, 0, .*", expect = FORBIDDEN,
        desc = "p2 could not re-claim the crashed poller's rows after expiry: they are stuck (EVENTUAL_DELIVERY)")
@Outcome(id = "\\d, \\d, 2, 0, \\d", expect = FORBIDDEN,
        desc = "E1 is DELIVERED but its effect never landed: acked, then the poller crashed (NO_LOST_EVENT)")
@Outcome(id = {"\\d, \\d, \\d, [2-9], \\d", "\\d, \\d, \\d, \\d, [2-9]"}, expect = FORBIDDEN,
        desc = "an effect was applied twice (EFFECT_AT_MOST_ONCE)")
@Outcome(expect = FORBIDDEN, desc = "any other outcome (no invariant named: a state this harness does not expect at all)")
public class Relay_03_CrashRestart {

    static final World WORLD = new World(List.of(new Event("E1", "SKU-1", 1, 1), new Event("E2", "SKU-2", 2, 2)), Map.of("SKU-1", 10, "SKU-2", 10), 1);

    /** p1 holds E1 (t1) and E2 (t2) in one batch, both expiring at time 1. */
    public abstract static class Race extends RelayRace {
        final Held first;

        Race(Subject subject) {
            super(subject);
            first = store.claim("p1", 2).get(0);
        }

        /** p1's one step before it crashes: the first half of processing E1, never the second. */
        int stepThenCrash() {
            if (logic.acksBeforeDelivering()) {
                return store.ack(first.eventId(), first.token()) ? 3 : 4;
            }
            return deliver(first.eventId(), first.token());
        }

        /** p2 after the lease expired: re-claim the batch, deliver and ack each row; rows re-claimed. */
        int successor() {
            store.tick();
            List<Held> held = store.claim("p2", 2);
            held.forEach(this::process);
            return held.size();
        }

        void finalState(IIIII_Result r) {
            r.r3 = (int) WORLD.events().stream().filter(e -> store.row(e.id()).status() == RowStatus.DELIVERED).count();
            ConsumerState consumer = store.state().consumer();
            r.r4 = consumer.effectCount("E1");
            r.r5 = consumer.effectCount("E2");
        }
    }

    @JCStressTest
    @JCStressMeta(Relay_03_CrashRestart.class)
    @State
    public static class Correct extends Race {
        public Correct() {
            super(WORLD.with(Catalogue.correct()));
        }

        @Actor
        public void p1(IIIII_Result r) {
            r.r1 = stepThenCrash();
        }

        @Actor
        public void p2(IIIII_Result r) {
            r.r2 = successor();
        }

        @Arbiter
        public void end(IIIII_Result r) {
            finalState(r);
        }
    }

    /** lease-never-expires: the crashed poller's leases are written without an expiry. */
    @JCStressTest
    @JCStressMeta(Relay_03_CrashRestart.class)
    @State
    public static class LeaseNeverExpires extends Race {
        private static final RelayLogic LOGIC = Catalogue.logic("lease-never-expires");

        public LeaseNeverExpires() {
            super(WORLD.with(LOGIC));
        }

        @Actor
        public void p1(IIIII_Result r) {
            r.r1 = stepThenCrash();
        }

        @Actor
        public void p2(IIIII_Result r) {
            r.r2 = successor();
        }

        @Arbiter
        public void end(IIIII_Result r) {
            finalState(r);
        }
    }

    /** ack-before-deliver: the poller marks the row DELIVERED, then delivers; p1 crashes in between. */
    @JCStressTest
    @JCStressMeta(Relay_03_CrashRestart.class)
    @State
    public static class AckBeforeDeliver extends Race {
        private static final RelayLogic LOGIC = Catalogue.logic("ack-before-deliver");

        public AckBeforeDeliver() {
            super(WORLD.with(LOGIC));
        }

        @Actor
        public void p1(IIIII_Result r) {
            r.r1 = stepThenCrash();
        }

        @Actor
        public void p2(IIIII_Result r) {
            r.r2 = successor();
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
    @JCStressMeta(Relay_03_CrashRestart.class)
    @State
    public static class User extends Race {
        public User() {
            super(WORLD.ofUser());
        }

        @Actor
        public void p1(IIIII_Result r) {
            r.r1 = stepThenCrash();
        }

        @Actor
        public void p2(IIIII_Result r) {
            r.r2 = successor();
        }

        @Arbiter
        public void end(IIIII_Result r) {
            finalState(r);
        }
    }
}
