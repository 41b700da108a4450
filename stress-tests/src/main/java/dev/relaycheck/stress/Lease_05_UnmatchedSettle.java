package dev.relaycheck.stress;

import dev.relaycheck.model.Event;
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
import org.openjdk.jcstress.infra.results.III_Result;

import java.util.List;
import java.util.Map;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Hazard: a stalled owner completes E1 after its lease expired while a second poller
 * re-claims it. If the second poller got there first, the owner's ack matches no row: its complete silently
 * did nothing. A poller that reads the result knows that; one that does not believes it succeeded and runs its
 * cleanup, unlocking the row by id, which wipes the live lease of the poller that took the row over
 * (STALE_ACK_REJECTED): a third poller could claim the row while the second still delivers it.
 *
 * <p>Set-up: p1 claimed E1 (t1, lease 2) and delivered it, the clock moved 2 ticks. Outcome {@code r1, r2, r3}:
 * p1's ack matched the row (1) or matched no row (0), the token p2's claim got (0: nothing to claim), and the
 * row's lease token afterwards (0: no lease).
 *
 * <p>Run just this harness (report in results/jcstress/Lease_05_UnmatchedSettle.txt):
 * <pre>java -cp stress-tests/target/jcstress.jar dev.relaycheck.stress.Curriculum --tests Lease_05 --out results/jcstress</pre>
 *
 * <p>Expected: {@code Correct} sees {@code 1, 0, 0} and {@code 0, 2, 2}; {@code IgnoresSettleResult} turns
 * every "p2 first" sample into {@code 0, 2, 0}.
 */
@Description("a stalled owner's ack races a re-claim; when it matched no row, the owner must not act as if it had applied")
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE,
        desc = "the owner acked while t1 was still current: E1 is DELIVERED and p2 found nothing to claim")
@Outcome(id = "0, 2, 2", expect = ACCEPTABLE_INTERESTING,
        desc = "p2 re-claimed with t2 first: the owner's ack matched no row, it knew, and p2's lease survived")
@Outcome(id = "0, 2, 0", expect = FORBIDDEN,
        desc = "the owner's ack matched no row but it unlocked the row anyway: p2's live t2 lease is gone (STALE_ACK_REJECTED)")
@Outcome(expect = FORBIDDEN, desc = "any other outcome (no invariant named: a state this harness does not expect at all)")
public class Lease_05_UnmatchedSettle {

    static final World WORLD = new World(List.of(new Event("E1", "SKU-1", 1, 3)), Map.of("SKU-1", 10), 2);

    /** p1 holds t1, delivered E1, its lease expired. */
    public abstract static class Race extends RelayRace {
        final long staleToken;

        Race(Subject subject) {
            super(subject);
            staleToken = claimOne("p1");
            deliver("E1", staleToken);
            store.tick();
            store.tick();
        }

        int leaseToken() {
            return (int) Math.max(0, store.row("E1").currentToken());
        }
    }

    @JCStressTest
    @JCStressMeta(Lease_05_UnmatchedSettle.class)
    @State
    public static class Correct extends Race {
        public Correct() {
            super(WORLD.with(Catalogue.correct()));
        }

        @Actor
        public void owner(III_Result r) {
            r.r1 = ack("E1", staleToken);
        }

        @Actor
        public void p2(III_Result r) {
            r.r2 = (int) claimOne("p2");
        }

        @Arbiter
        public void lease(III_Result r) {
            r.r3 = leaseToken();
        }
    }

    /** ignores-settle-result: the owner does not read its ack's row count and unlocks the row by id afterwards. */
    @JCStressTest
    @JCStressMeta(Lease_05_UnmatchedSettle.class)
    @State
    public static class IgnoresSettleResult extends Race {
        private static final RelayLogic LOGIC = Catalogue.logic("ignores-settle-result");

        public IgnoresSettleResult() {
            super(WORLD.with(LOGIC));
        }

        @Actor
        public void owner(III_Result r) {
            r.r1 = ack("E1", staleToken);
        }

        @Actor
        public void p2(III_Result r) {
            r.r2 = (int) claimOne("p2");
        }

        @Arbiter
        public void lease(III_Result r) {
            r.r3 = leaseToken();
        }
    }

    /**
     * The user's target (relaycheck stress --logic CLASS and/or --store CLASS, --classpath JAR): their logic in the
     * shipped store, or their own store, loaded in this forked JVM from the user's jar named by system properties.
     * It never falls back: if the classes cannot be loaded the state cannot be built and the test errors out.
     */
    @JCStressTest
    @JCStressMeta(Lease_05_UnmatchedSettle.class)
    @State
    public static class User extends Race {
        public User() {
            super(WORLD.ofUser());
        }

        @Actor
        public void owner(III_Result r) {
            r.r1 = ack("E1", staleToken);
        }

        @Actor
        public void p2(III_Result r) {
            r.r2 = (int) claimOne("p2");
        }

        @Arbiter
        public void lease(III_Result r) {
            r.r3 = leaseToken();
        }
    }
}
