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
import org.openjdk.jcstress.infra.results.IIII_Result;

import java.util.List;
import java.util.Map;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Hazard: a poller stalled while holding E1 (a GC pause, a slow network) and its lease expired. It wakes up,
 * delivers and acknowledges with its old token t1 while a second poller re-claims the row with t2 and does
 * the same. The fenced ack ({@code UPDATE ... WHERE id = ? AND lease_token = ?}) must reject t1 once t2
 * exists, and every claim must issue a fresh token (STALE_ACK_REJECTED).
 *
 * <p>Set-up: p1 claimed E1 (t1, lease 2 ticks), then the clock moved 2 ticks. Outcome
 * {@code r1, r2, r3, r4}: p1's ack accepted (1) or rejected (0), the token p2's claim got (0: nothing
 * claimable), p2's ack accepted, and the final stock of SKU-1 (10, E1 takes 3).
 *
 * <p>Run just this harness (report in results/jcstress/Lease_02_StaleAckAfterExpiry.txt):
 * <pre>java -cp stress-tests/target/jcstress.jar dev.relaycheck.stress.Curriculum --tests Lease_02 --out results/jcstress</pre>
 *
 * <p>Typical quick-mode result: {@code Correct} sees {@code 1, 0, 0, 7} (the owner got there first) and
 * {@code 0, 2, 1, 7} (p2 re-claimed first, the stale ack was rejected); {@code AckIgnoresToken} adds
 * {@code 1, 2, 0, 7}; {@code ReclaimKeepsToken} shows p2 granted t1 again ({@code 0, 1, 1, 7} or
 * {@code 1, 1, 0, 7}) whenever p2 claims first.
 */
@Description("a stalled owner acks after its lease expired while a second poller re-claims and acks; the stale token is rejected")
@Outcome(id = "1, 0, 0, 7", expect = ACCEPTABLE,
        desc = "the stalled owner acked before anyone re-claimed: t1 was still the row's token, so its late ack stands")
@Outcome(id = "0, 2, 1, 7", expect = ACCEPTABLE_INTERESTING,
        desc = "p2 re-claimed with t2 first: the stale t1 ack was rejected, the effect landed once, p2's ack delivered the row")
@Outcome(id = "1, 2, 0, 7", expect = FORBIDDEN,
        desc = "the stale t1 ack was accepted after p2 re-claimed with t2, and p2's own ack failed (STALE_ACK_REJECTED)")
@Outcome(id = "1, 2, 1, 7", expect = FORBIDDEN,
        desc = "both the stale t1 ack and p2's t2 ack were accepted: the stale ack passed the fence (STALE_ACK_REJECTED)")
@Outcome(id = "[01], 1, [01], 7", expect = FORBIDDEN,
        desc = "p2's re-claim was granted t1 again, so the stalled owner's token still passes the fence (STALE_ACK_REJECTED)")
@Outcome(id = "[01], \\d+, [01], 4", expect = FORBIDDEN, desc = "E1's effect was applied twice (EFFECT_AT_MOST_ONCE)")
@Outcome(expect = FORBIDDEN, desc = "any other outcome (no invariant named: a state this harness does not expect at all)")
public class Lease_02_StaleAckAfterExpiry {

    static final World WORLD = new World(List.of(new Event("E1", "SKU-1", 1, 3)), Map.of("SKU-1", 10), 2);

    /** p1 holds t1 and stalled until its lease expired. */
    public abstract static class Race extends RelayRace {
        final long staleToken;

        Race(Subject subject) {
            super(subject);
            staleToken = claimOne("p1");
            store.tick();
            store.tick();
        }

        /** The stalled owner wakes up: delivers, then acks with its old token. */
        int stalledOwner() {
            deliver("E1", staleToken);
            return ack("E1", staleToken);
        }

        /** The second poller re-claims (token into r2), then delivers and acks (ack into r3). */
        void secondPoller(IIII_Result r) {
            long token = claimOne("p2");
            r.r2 = (int) token;
            if (token > 0) {
                deliver("E1", token);
                r.r3 = ack("E1", token);
            }
        }
    }

    @JCStressTest
    @JCStressMeta(Lease_02_StaleAckAfterExpiry.class)
    @State
    public static class Correct extends Race {
        public Correct() {
            super(WORLD.with(Catalogue.correct()));
        }

        @Actor
        public void owner(IIII_Result r) {
            r.r1 = stalledOwner();
        }

        @Actor
        public void p2(IIII_Result r) {
            secondPoller(r);
        }

        @Arbiter
        public void stock(IIII_Result r) {
            r.r4 = store.stock("SKU-1");
        }
    }

    /** ack-ignores-token: the ack's WHERE matches the row by id and status only. */
    @JCStressTest
    @JCStressMeta(Lease_02_StaleAckAfterExpiry.class)
    @State
    public static class AckIgnoresToken extends Race {
        private static final RelayLogic LOGIC = Catalogue.logic("ack-ignores-token");

        public AckIgnoresToken() {
            super(WORLD.with(LOGIC));
        }

        @Actor
        public void owner(IIII_Result r) {
            r.r1 = stalledOwner();
        }

        @Actor
        public void p2(IIII_Result r) {
            secondPoller(r);
        }

        @Arbiter
        public void stock(IIII_Result r) {
            r.r4 = store.stock("SKU-1");
        }
    }

    /** reclaim-keeps-token: a re-claim leaves the old token in place. */
    @JCStressTest
    @JCStressMeta(Lease_02_StaleAckAfterExpiry.class)
    @State
    public static class ReclaimKeepsToken extends Race {
        private static final RelayLogic LOGIC = Catalogue.logic("reclaim-keeps-token");

        public ReclaimKeepsToken() {
            super(WORLD.with(LOGIC));
        }

        @Actor
        public void owner(IIII_Result r) {
            r.r1 = stalledOwner();
        }

        @Actor
        public void p2(IIII_Result r) {
            secondPoller(r);
        }

        @Arbiter
        public void stock(IIII_Result r) {
            r.r4 = store.stock("SKU-1");
        }
    }

    /**
     * The user's target (relaycheck stress --logic CLASS and/or --store CLASS, --classpath JAR): their logic in the
     * shipped store, or their own store, loaded in this forked JVM from the user's jar named by system properties.
     * It never falls back: if the classes cannot be loaded the state cannot be built and the test errors out.
     */
    @JCStressTest
    @JCStressMeta(Lease_02_StaleAckAfterExpiry.class)
    @State
    public static class User extends Race {
        public User() {
            super(WORLD.ofUser());
        }

        @Actor
        public void owner(IIII_Result r) {
            r.r1 = stalledOwner();
        }

        @Actor
        public void p2(IIII_Result r) {
            secondPoller(r);
        }

        @Arbiter
        public void stock(IIII_Result r) {
            r.r4 = store.stock("SKU-1");
        }
    }
}
