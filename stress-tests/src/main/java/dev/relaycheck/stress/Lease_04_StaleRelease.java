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
 * Hazard: the owner's delivery failed (the consumer rolled back), so it releases E1 for a retry; but it
 * stalled first, its lease expired, and a second poller may already have re-claimed the row. A release
 * fenced by token is rejected then; a release by event id alone clears the successor's live lease, and the
 * row becomes claimable while its new owner is still delivering (STALE_ACK_REJECTED).
 *
 * <p>Set-up: p1 claimed E1 (t1, lease 2), its delivery failed, the clock moved 2 ticks. Outcome
 * {@code r1, r2, r3}: p1's release accepted (1) or rejected (0), the token p2's claim got, and the row's
 * lease token afterwards (0: no lease).
 *
 * <p>Run just this harness (report in results/jcstress/Lease_04_StaleRelease.txt):
 * <pre>java -cp stress-tests/target/jcstress.jar dev.relaycheck.stress.Curriculum --tests Lease_04 --out results/jcstress</pre>
 *
 * <p>Typical quick-mode result: {@code Correct} sees {@code 1, 2, 2} and {@code 0, 2, 2};
 * {@code ReleaseIgnoresToken} turns every "p2 first" sample into {@code 1, 2, 0}.
 */
@Description("a stalled owner releases after its lease expired while a second poller re-claims; the stale release is rejected")
@Outcome(id = "1, 2, 2", expect = ACCEPTABLE,
        desc = "the owner released while t1 was still current; p2 then claimed the free row with t2")
@Outcome(id = "0, 2, 2", expect = ACCEPTABLE_INTERESTING,
        desc = "p2 re-claimed with t2 first: the stale t1 release was rejected and p2's lease survived")
@Outcome(id = "1, 2, 0", expect = FORBIDDEN,
        desc = "the stale t1 release cleared p2's live t2 lease: the row is claimable while p2 delivers (STALE_ACK_REJECTED)")
@Outcome(expect = FORBIDDEN, desc = "any other outcome (no invariant named: a state this harness does not expect at all)")
public class Lease_04_StaleRelease {

    static final World WORLD = new World(List.of(new Event("E1", "SKU-1", 1, 3)), Map.of("SKU-1", 10), 2);

    /** p1 holds t1, its delivery failed, its lease expired. */
    public abstract static class Race extends RelayRace {
        final long staleToken;

        Race(Subject subject) {
            super(subject);
            staleToken = claimOne("p1");
            store.tick();
            store.tick();
        }

        int leaseToken() {
            return (int) Math.max(0, store.row("E1").currentToken());
        }
    }

    @JCStressTest
    @JCStressMeta(Lease_04_StaleRelease.class)
    @State
    public static class Correct extends Race {
        public Correct() {
            super(WORLD.with(Catalogue.correct()));
        }

        @Actor
        public void owner(III_Result r) {
            r.r1 = store.release("E1", staleToken) ? 1 : 0;
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

    /** release-ignores-token: the release's WHERE matches the row by id and status only. */
    @JCStressTest
    @JCStressMeta(Lease_04_StaleRelease.class)
    @State
    public static class ReleaseIgnoresToken extends Race {
        private static final RelayLogic LOGIC = Catalogue.logic("release-ignores-token");

        public ReleaseIgnoresToken() {
            super(WORLD.with(LOGIC));
        }

        @Actor
        public void owner(III_Result r) {
            r.r1 = store.release("E1", staleToken) ? 1 : 0;
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
    @JCStressMeta(Lease_04_StaleRelease.class)
    @State
    public static class User extends Race {
        public User() {
            super(WORLD.ofUser());
        }

        @Actor
        public void owner(III_Result r) {
            r.r1 = store.release("E1", staleToken) ? 1 : 0;
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
