package dev.relaycheck.stress;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.Held;
import dev.relaycheck.model.RelayLogic;
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
 * Hazard: two events of one aggregate (E1 then E2, both "take 2 of SKU-1") and two pollers. A claim may only
 * take the head of an aggregate (no earlier PENDING row of the same aggregate), so E2 is claimable only once
 * E1 is DELIVERED and the effects land in sequence order (AGGREGATE_ORDER). The two events carry equal
 * payloads, so a consumer that dedups by payload instead of event id drops E2 (NO_LOST_EVENT).
 *
 * <p>Each poller claims one row, delivers and acks it; right after its claim it looks whether an earlier row
 * of the same aggregate is still PENDING (status only moves forward, so if it is PENDING then, it was
 * PENDING when the claim was granted). Outcome {@code r1, r2, r3, r4, r5}: the sequence number p1 delivered
 * (0: none), the one p2 delivered, whether a claim overtook an earlier PENDING event (1) or not (0), and the
 * first and second effects applied to SKU-1 (0: none).
 *
 * <p>Run just this harness (report in results/jcstress/Order_01_AggregateOrder.txt):
 * <pre>java -cp stress-tests/target/jcstress.jar dev.relaycheck.stress.Curriculum --tests Order_01 --out results/jcstress</pre>
 *
 * <p>Typical quick-mode result: {@code Correct} mostly {@code 1, 2, 0, 1, 2} / {@code 2, 1, 0, 1, 2} (E2 was
 * claimed after E1 was acked) plus a few percent {@code 1, 0, 0, 1, 0} / {@code 0, 1, 0, 1, 0} (the other
 * poller found nothing claimable); {@code NoHeadOfAggregate} shows {@code 1, 2, 1, 1, 2} (E2 granted while E1
 * was PENDING, about 0.2% of samples) and, rarer still, {@code 1, 2, 1, 2, 1} (E2's effect first);
 * {@code DedupByPayload} turns every "both delivered" sample into {@code 1, 2, 0, 1, 0}.
 */
@Description("two pollers, two events of one aggregate; effects land in sequence order")
@Outcome(id = {"1, 0, 0, 1, 0", "0, 1, 0, 1, 0"}, expect = ACCEPTABLE,
        desc = "one poller delivered E1; the other found nothing claimable (E1 leased, E2 waits behind it)")
@Outcome(id = "1, 2, 0, 1, 2", expect = ACCEPTABLE_INTERESTING,
        desc = "p2 claimed E2 only after p1 had acked E1: both effects, in order")
@Outcome(id = "2, 1, 0, 1, 2", expect = ACCEPTABLE_INTERESTING,
        desc = "p1 claimed E2 only after p2 had acked E1: both effects, in order")
@Outcome(id = "\\d, \\d, [01], 2, [01]", expect = FORBIDDEN,
        desc = "E2's effect landed before E1's (AGGREGATE_ORDER)")
@Outcome(id = "\\d, \\d, 1, .*", expect = FORBIDDEN,
        desc = "E2 was claimed while E1 was still PENDING: no head-of-aggregate rule, E2 may overtake E1 (AGGREGATE_ORDER)")
@Outcome(id = {"1, 2, 0, 1, 0", "2, 1, 0, 1, 0"}, expect = FORBIDDEN,
        desc = "E2 was delivered and acked but its effect was dropped as a duplicate of E1's payload (NO_LOST_EVENT)")
@Outcome(expect = FORBIDDEN, desc = "any other outcome (no invariant named: a state this harness does not expect at all)")
public class Order_01_AggregateOrder {

    static final World WORLD = new World(List.of(new Event("E1", "SKU-1", 1, 2), new Event("E2", "SKU-1", 2, 2)), Map.of("SKU-1", 10), 2);

    /** Two PENDING rows of SKU-1, nothing claimed yet. */
    public abstract static class Race extends RelayRace {

        Race(Subject subject) {
            super(subject);
        }

        /** Set by a poller that was granted a row while an earlier row of its aggregate was still PENDING. */
        volatile int overtook;

        /** One poller turn: claim one row, deliver and ack it; the sequence number delivered (0: none). */
        int turn(String poller) {
            List<Held> held = store.claim(poller, 1);
            if (held.isEmpty()) {
                return 0;
            }
            if (earlierStillPending(held.get(0))) {
                overtook = 1;
            }
            process(held.get(0));
            return seqOf(held.get(0));
        }

        private boolean earlierStillPending(Held held) {
            int seq = seqOf(held);
            return WORLD.events().stream().anyMatch(e -> e.seq() < seq && store.row(e.id()).isPending());
        }

        void finalState(IIIII_Result r) {
            List<Integer> order = store.state().consumer().appliedOrder().getOrDefault("SKU-1", List.of());
            r.r3 = overtook;
            r.r4 = order.size() > 0 ? order.get(0) : 0;
            r.r5 = order.size() > 1 ? order.get(1) : 0;
        }
    }

    @JCStressTest
    @JCStressMeta(Order_01_AggregateOrder.class)
    @State
    public static class Correct extends Race {
        public Correct() {
            super(WORLD.with(Catalogue.correct()));
        }

        @Actor
        public void p1(IIIII_Result r) {
            r.r1 = turn("p1");
        }

        @Actor
        public void p2(IIIII_Result r) {
            r.r2 = turn("p2");
        }

        @Arbiter
        public void end(IIIII_Result r) {
            finalState(r);
        }
    }

    /** no-head-of-aggregate: the claim ignores earlier PENDING rows of the same aggregate. */
    @JCStressTest
    @JCStressMeta(Order_01_AggregateOrder.class)
    @State
    public static class NoHeadOfAggregate extends Race {
        private static final RelayLogic LOGIC = Catalogue.logic("no-head-of-aggregate");

        public NoHeadOfAggregate() {
            super(WORLD.with(LOGIC));
        }

        @Actor
        public void p1(IIIII_Result r) {
            r.r1 = turn("p1");
        }

        @Actor
        public void p2(IIIII_Result r) {
            r.r2 = turn("p2");
        }

        @Arbiter
        public void end(IIIII_Result r) {
            finalState(r);
        }
    }

    /** dedup-by-payload: the consumer's marker is keyed by the payload, which E1 and E2 share. */
    @JCStressTest
    @JCStressMeta(Order_01_AggregateOrder.class)
    @State
    public static class DedupByPayload extends Race {
        private static final RelayLogic LOGIC = Catalogue.logic("dedup-by-payload");

        public DedupByPayload() {
            super(WORLD.with(LOGIC));
        }

        @Actor
        public void p1(IIIII_Result r) {
            r.r1 = turn("p1");
        }

        @Actor
        public void p2(IIIII_Result r) {
            r.r2 = turn("p2");
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
    @JCStressMeta(Order_01_AggregateOrder.class)
    @State
    public static class User extends Race {
        public User() {
            super(WORLD.ofUser());
        }

        @Actor
        public void p1(IIIII_Result r) {
            r.r1 = turn("p1");
        }

        @Actor
        public void p2(IIIII_Result r) {
            r.r2 = turn("p2");
        }

        @Arbiter
        public void end(IIIII_Result r) {
            finalState(r);
        }
    }
}
