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
import org.openjdk.jcstress.infra.results.II_Result;

import java.util.List;
import java.util.Map;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Hazard: lease renewal. p1 works under t1 and sends a heartbeat to extend its lease; but it stalled
 * first, its lease lapsed, and a second poller may already have re-claimed the row. A renewal fenced by token
 * (and re-checking expiry) is refused then, and p1 gives up the row; a renewal by owner name, where owner names
 * are node names shared by a node's workers, extends p2's live lease and tells p1 it still holds the row: two
 * pollers believe they hold a live lease (SINGLE_LIVE_LEASE).
 *
 * <p>Set-up: p1 claimed E1 (t1, lease 2), the clock moved 2 ticks. Outcome {@code r1, r2}: p1's renewal
 * accepted (1) or refused (0), and the token p2's claim got (0: it found nothing to claim).
 *
 * <p>Run just this harness (report in results/jcstress/Lease_06_RenewalAfterTakeover.txt):
 * <pre>java -cp stress-tests/target/jcstress.jar dev.relaycheck.stress.Curriculum --tests Lease_05 --out results/jcstress</pre>
 *
 * <p>Expected: {@code Correct} sees only {@code 0, 2}; {@code RenewalByOwner} and {@code RenewalIgnoresExpiry}
 * turn every "p2 first" sample into {@code 1, 2}; {@code RenewalIgnoresExpiry} also revives p1's lapsed lease
 * when its renewal comes first ({@code 1, 0}).
 */
@Description("a stalled owner's heartbeat renews after its lease lapsed while a second poller re-claims; the renewal must be refused")
@Outcome(id = "0, 2", expect = ACCEPTABLE_INTERESTING,
        desc = "the renewal was refused (the lease had lapsed, or p2 held it with t2) and p2 claimed with t2: one live lease")
@Outcome(id = "1, 0", expect = ACCEPTABLE,
        desc = "a renewal without the expiry re-check came first and revived p1's own lapsed lease, so p2 found nothing; "
                + "nobody else held the row (harmless under a token fence)")
@Outcome(id = "1, 2", expect = FORBIDDEN,
        desc = "p1's renewal was accepted while p2 holds the live lease t2: two pollers believe they hold the row (SINGLE_LIVE_LEASE)")
@Outcome(expect = FORBIDDEN, desc = "any other outcome (no invariant named: a state this harness does not expect at all)")
public class Lease_06_RenewalAfterTakeover {

    static final World WORLD = new World(List.of(new Event("E1", "SKU-1", 1, 3)), Map.of("SKU-1", 10), 2);

    /** p1 holds t1 and is working; its lease lapsed. */
    public abstract static class Race extends RelayRace {
        final long ownToken;

        Race(Subject subject) {
            super(subject);
            ownToken = claimOne("p1");
            store.tick();
            store.tick();
        }

        void heartbeat(II_Result r) {
            r.r1 = store.renew("E1", ownToken, "p1") ? 1 : 0;
        }

        void takeOver(II_Result r) {
            r.r2 = (int) claimOne("p2");
        }
    }

    @JCStressTest
    @JCStressMeta(Lease_06_RenewalAfterTakeover.class)
    @State
    public static class Correct extends Race {
        public Correct() {
            super(WORLD.with(Catalogue.correct()));
        }

        @Actor
        public void owner(II_Result r) {
            heartbeat(r);
        }

        @Actor
        public void p2(II_Result r) {
            takeOver(r);
        }
    }

    /** renewal-by-owner: the heartbeat's WHERE matches the node's owner name and a live lease, not the token. */
    @JCStressTest
    @JCStressMeta(Lease_06_RenewalAfterTakeover.class)
    @State
    public static class RenewalByOwner extends Race {
        private static final RelayLogic LOGIC = Catalogue.logic("renewal-by-owner");

        public RenewalByOwner() {
            super(WORLD.with(LOGIC));
        }

        @Actor
        public void owner(II_Result r) {
            heartbeat(r);
        }

        @Actor
        public void p2(II_Result r) {
            takeOver(r);
        }
    }

    /** renewal-ignores-expiry: the heartbeat's WHERE matches the owner name only, lapsed or not. */
    @JCStressTest
    @JCStressMeta(Lease_06_RenewalAfterTakeover.class)
    @State
    public static class RenewalIgnoresExpiry extends Race {
        private static final RelayLogic LOGIC = Catalogue.logic("renewal-ignores-expiry");

        public RenewalIgnoresExpiry() {
            super(WORLD.with(LOGIC));
        }

        @Actor
        public void owner(II_Result r) {
            heartbeat(r);
        }

        @Actor
        public void p2(II_Result r) {
            takeOver(r);
        }
    }

    /**
     * The user's target (relaycheck stress --logic CLASS and/or --store CLASS, --classpath JAR): their logic in the
     * shipped store, or their own store (one without a renew operation refuses every renewal: always 0, 2).
     */
    @JCStressTest
    @JCStressMeta(Lease_06_RenewalAfterTakeover.class)
    @State
    public static class User extends Race {
        public User() {
            super(WORLD.ofUser());
        }

        @Actor
        public void owner(II_Result r) {
            heartbeat(r);
        }

        @Actor
        public void p2(II_Result r) {
            takeOver(r);
        }
    }
}
