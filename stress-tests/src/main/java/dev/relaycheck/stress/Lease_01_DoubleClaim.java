package dev.relaycheck.stress;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.Lease;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.store.UserTarget;
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

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Hazard: two pollers claim the same PENDING row at the same instant. A claim must check "no live lease" and
 * write its own lease as one atomic step (SELECT ... FOR UPDATE SKIP LOCKED, or a conditional UPDATE), so
 * exactly one of them wins; otherwise both believe they own the row (SINGLE_LIVE_LEASE).
 *
 * <p>Outcome {@code r1, r2, r3}: the token p1 was granted (0: none), the token p2 was granted, and who owns
 * the lease afterwards (1: p1, 2: p2, 0: nobody, -1: unknown, for a user's store that produces no snapshot: the
 * grants alone still show a double claim, so this harness is the one outcome-only harness of the curriculum). Both winner outcomes are witnesses: seeing each of them
 * shows the race really went both ways.
 *
 * <p>Run just this harness (report in results/jcstress/Lease_01_DoubleClaim.txt):
 * <pre>java -cp stress-tests/target/jcstress.jar dev.relaycheck.stress.Curriculum --tests Lease_01 --out results/jcstress</pre>
 *
 * <p>Typical quick-mode result: {@code Correct} sees only {@code 1, 0, 1} and {@code 0, 1, 2}, about half each;
 * {@code ClaimIgnoresLease} sees {@code 1, 2, 2} / {@code 2, 1, 1} every time (the second claim overwrites a
 * live lease); the check-then-act claims show {@code 1, 2, 2} / {@code 2, 1, 1} whenever both reads happen
 * before either write, typically 2-4% of the samples.
 */
@Description("two pollers claim the same row at once; exactly one wins")
@Outcome(id = "1, 0, (1|-1)", expect = ACCEPTABLE_INTERESTING,
        desc = "p1 won the claim with t1; p2 found the row leased (owner -1: a store without a snapshot)")
@Outcome(id = "0, 1, (2|-1)", expect = ACCEPTABLE_INTERESTING,
        desc = "p2 won the claim with t1; p1 found the row leased (owner -1: a store without a snapshot)")
@Outcome(id = "[1-9]\\d*, [1-9]\\d*, -?\\d+", expect = FORBIDDEN,
        desc = "both pollers were granted a lease on E1 at the same instant, one over the other's live lease (SINGLE_LIVE_LEASE)")
@Outcome(id = "0, 0, -?\\d+", expect = FORBIDDEN,
        desc = "neither poller claimed the claimable row (EVENTUAL_DELIVERY: a claimable row nobody can take)")
@Outcome(expect = FORBIDDEN, desc = "any other outcome: grants and the row's lease disagree")
public class Lease_01_DoubleClaim {

    static final World WORLD = new World(List.of(new Event("E1", "SKU-1", 1, 1)), Map.of("SKU-1", 10), 2);

    /** The race itself; each nested test only chooses the logic and the store. */
    public abstract static class Race extends RelayRace {

        Race(Subject subject) {
            super(subject);
        }

        /** False for a user's store without a snapshot: the owner is then reported as unknown (-1). */
        boolean ownerVisible = true;

        int owner() {
            if (!ownerVisible) {
                return -1;
            }
            Lease lease = store.row("E1").lease();
            return lease == null ? 0 : lease.owner().equals("p1") ? 1 : 2;
        }
    }

    @JCStressTest
    @JCStressMeta(Lease_01_DoubleClaim.class)
    @State
    public static class Correct extends Race {
        public Correct() {
            super(WORLD.with(Catalogue.correct()));
        }

        @Actor
        public void p1(III_Result r) {
            r.r1 = (int) claimOne("p1");
        }

        @Actor
        public void p2(III_Result r) {
            r.r2 = (int) claimOne("p2");
        }

        @Arbiter
        public void lease(III_Result r) {
            r.r3 = owner();
        }
    }

    /** claim-ignores-lease: the claim's WHERE never looks at the lease expiry. */
    @JCStressTest
    @JCStressMeta(Lease_01_DoubleClaim.class)
    @State
    public static class ClaimIgnoresLease extends Race {
        private static final RelayLogic LOGIC = Catalogue.logic("claim-ignores-lease");

        public ClaimIgnoresLease() {
            super(WORLD.with(LOGIC));
        }

        @Actor
        public void p1(III_Result r) {
            r.r1 = (int) claimOne("p1");
        }

        @Actor
        public void p2(III_Result r) {
            r.r2 = (int) claimOne("p2");
        }

        @Arbiter
        public void lease(III_Result r) {
            r.r3 = owner();
        }
    }

    /** check-then-act-claim: the catalogue variant, expressed by a store that reads first and writes later. */
    @JCStressTest
    @JCStressMeta(Lease_01_DoubleClaim.class)
    @State
    public static class CheckThenActClaim extends Race {
        private static final RelayLogic LOGIC = Catalogue.logic("check-then-act-claim");

        public CheckThenActClaim() {
            super(WORLD.with(LOGIC));
        }

        @Actor
        public void p1(III_Result r) {
            r.r1 = (int) claimOne("p1");
        }

        @Actor
        public void p2(III_Result r) {
            r.r2 = (int) claimOne("p2");
        }

        @Arbiter
        public void lease(III_Result r) {
            r.r3 = owner();
        }
    }

    /** CheckThenActClaimStore: the correct logic on a store whose claim is not atomic. */
    @JCStressTest
    @JCStressMeta(Lease_01_DoubleClaim.class)
    @State
    public static class CheckThenActClaimStore extends Race {
        public CheckThenActClaimStore() {
            super(WORLD.in(Catalogue.correct(), dev.relaycheck.model.store.CheckThenActClaimStore::new));
        }

        @Actor
        public void p1(III_Result r) {
            r.r1 = (int) claimOne("p1");
        }

        @Actor
        public void p2(III_Result r) {
            r.r2 = (int) claimOne("p2");
        }

        @Arbiter
        public void lease(III_Result r) {
            r.r3 = owner();
        }
    }

    /**
     * The user's target (relaycheck stress --logic CLASS and/or --store CLASS, --classpath JAR): their logic in the
     * shipped store, or their own store, loaded in this forked JVM from the user's jar named by system properties.
     * It never falls back: if the classes cannot be loaded the state cannot be built and the test errors out.
     */
    @JCStressTest
    @JCStressMeta(Lease_01_DoubleClaim.class)
    @State
    public static class User extends Race {
        /** Decided once per forked JVM: whether the user's store can show the lease's owner. */
        private static final boolean SNAPSHOT = UserTarget.fromSystemProperties().hasSnapshot();

        public User() {
            super(WORLD.ofUser());
            ownerVisible = SNAPSHOT;
        }

        @Actor
        public void p1(III_Result r) {
            r.r1 = (int) claimOne("p1");
        }

        @Actor
        public void p2(III_Result r) {
            r.r2 = (int) claimOne("p2");
        }

        @Arbiter
        public void lease(III_Result r) {
            r.r3 = owner();
        }
    }
}
