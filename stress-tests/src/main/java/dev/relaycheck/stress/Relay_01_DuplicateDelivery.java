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
import org.openjdk.jcstress.infra.results.IIIII_Result;

import java.util.List;
import java.util.Map;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Hazard: at-least-once delivery means the consumer sees the same event twice, here at the same instant (p1
 * stalled past its lease, p2 re-claimed, both deliver now). The consumer's marker lookup, marker insert and
 * effect must be one transaction keyed by the stable event id, so exactly one delivery applies the effect
 * and the other is answered DUPLICATE; a DUPLICATE answer must also mean the effect has committed.
 *
 * <p>Set-up: EVENT E1 takes 4 of SKU-1 (stock 10); p1 holds t1 (expired), p2 holds t2. Each actor delivers
 * with its own token, then reads the stock. Outcome {@code r1, r2, r3, r4, r5}: p1's answer (1 APPLIED,
 * 2 DUPLICATE), the stock p1 saw after it, p2's answer, the stock p2 saw, final stock.
 *
 * <p>Run just this harness (report in results/jcstress/Relay_01_DuplicateDelivery.txt):
 * <pre>java -cp stress-tests/target/jcstress.jar dev.relaycheck.stress.Curriculum --tests Relay_01 --out results/jcstress</pre>
 *
 * <p>Typical quick-mode result: {@code Correct} sees {@code 1, 6, 2, 6, 6} and {@code 2, 6, 1, 6, 6};
 * {@code NoDedupMarker} always ends at stock 2; {@code CheckThenInsertDedupStore} and
 * {@code EffectBeforeMarker} end at stock 2 only when the second delivery looks between the first one's two
 * transactions (rare: about 0.01-0.2% of samples, tens to hundreds in a quick run);
 * {@code MarkerBeforeEffect} shows {@code 2, 10, 1, 6, 6}-style outcomes (DUPLICATE before the effect) in
 * about 0.1-1%.
 */
@Description("the same event delivered twice concurrently; one APPLIED, one DUPLICATE, stock changes once")
@Outcome(id = "1, 6, 2, 6, 6", expect = ACCEPTABLE_INTERESTING,
        desc = "p1's delivery applied the effect; p2's concurrent redelivery was answered DUPLICATE")
@Outcome(id = "2, 6, 1, 6, 6", expect = ACCEPTABLE_INTERESTING,
        desc = "p2's delivery applied the effect; p1's concurrent redelivery was answered DUPLICATE")
@Outcome(id = "1, -?\\d+, 1, -?\\d+, 2", expect = FORBIDDEN,
        desc = "both deliveries applied the effect: stock 2 (EFFECT_AT_MOST_ONCE)")
@Outcome(id = {"2, 10, .*", "1, \\d+, 2, 10, \\d+"}, expect = FORBIDDEN,
        desc = "a delivery was answered DUPLICATE before the effect had committed (MARKER_IFF_EFFECT)")
@Outcome(expect = FORBIDDEN, desc = "any other outcome (no invariant named: a state this harness does not expect at all)")
public class Relay_01_DuplicateDelivery {

    static final World WORLD = new World(List.of(new Event("E1", "SKU-1", 1, 4)), Map.of("SKU-1", 10), 2);

    /** p1 holds t1 but stalled past its lease; p2 has re-claimed with t2. Both are about to deliver. */
    public abstract static class Race extends RelayRace {
        final long p1Token;
        final long p2Token;

        Race(Subject subject) {
            super(subject);
            p1Token = claimOne("p1");
            store.tick();
            store.tick();
            p2Token = claimOne("p2");
        }

        void p1Delivers(IIIII_Result r) {
            r.r1 = deliver("E1", p1Token);
            r.r2 = store.stock("SKU-1");
        }

        void p2Delivers(IIIII_Result r) {
            r.r3 = deliver("E1", p2Token);
            r.r4 = store.stock("SKU-1");
        }
    }

    @JCStressTest
    @JCStressMeta(Relay_01_DuplicateDelivery.class)
    @State
    public static class Correct extends Race {
        public Correct() {
            super(WORLD.with(Catalogue.correct()));
        }

        @Actor
        public void p1(IIIII_Result r) {
            p1Delivers(r);
        }

        @Actor
        public void p2(IIIII_Result r) {
            p2Delivers(r);
        }

        @Arbiter
        public void stock(IIIII_Result r) {
            r.r5 = store.stock("SKU-1");
        }
    }

    /** CheckThenInsertDedupStore: the consumer looks the marker up in one transaction and inserts in another. */
    @JCStressTest
    @JCStressMeta(Relay_01_DuplicateDelivery.class)
    @State
    public static class CheckThenInsertDedupStore extends Race {
        public CheckThenInsertDedupStore() {
            super(WORLD.in(Catalogue.correct(), dev.relaycheck.model.store.CheckThenInsertDedupStore::new));
        }

        @Actor
        public void p1(IIIII_Result r) {
            p1Delivers(r);
        }

        @Actor
        public void p2(IIIII_Result r) {
            p2Delivers(r);
        }

        @Arbiter
        public void stock(IIIII_Result r) {
            r.r5 = store.stock("SKU-1");
        }
    }

    /** no-dedup-marker: the consumer never looks the marker up (the store honors consumerChecksMarker()). */
    @JCStressTest
    @JCStressMeta(Relay_01_DuplicateDelivery.class)
    @State
    public static class NoDedupMarker extends Race {
        private static final RelayLogic LOGIC = Catalogue.logic("no-dedup-marker");

        public NoDedupMarker() {
            super(WORLD.with(LOGIC));
        }

        @Actor
        public void p1(IIIII_Result r) {
            p1Delivers(r);
        }

        @Actor
        public void p2(IIIII_Result r) {
            p2Delivers(r);
        }

        @Arbiter
        public void stock(IIIII_Result r) {
            r.r5 = store.stock("SKU-1");
        }
    }

    /** effect-before-marker: the effect commits, then the marker in a second transaction. */
    @JCStressTest
    @JCStressMeta(Relay_01_DuplicateDelivery.class)
    @State
    public static class EffectBeforeMarker extends Race {
        private static final RelayLogic LOGIC = Catalogue.logic("effect-before-marker");

        public EffectBeforeMarker() {
            super(WORLD.with(LOGIC));
        }

        @Actor
        public void p1(IIIII_Result r) {
            p1Delivers(r);
        }

        @Actor
        public void p2(IIIII_Result r) {
            p2Delivers(r);
        }

        @Arbiter
        public void stock(IIIII_Result r) {
            r.r5 = store.stock("SKU-1");
        }
    }

    /** marker-before-effect: the marker commits, then the effect in a second transaction. */
    @JCStressTest
    @JCStressMeta(Relay_01_DuplicateDelivery.class)
    @State
    public static class MarkerBeforeEffect extends Race {
        private static final RelayLogic LOGIC = Catalogue.logic("marker-before-effect");

        public MarkerBeforeEffect() {
            super(WORLD.with(LOGIC));
        }

        @Actor
        public void p1(IIIII_Result r) {
            p1Delivers(r);
        }

        @Actor
        public void p2(IIIII_Result r) {
            p2Delivers(r);
        }

        @Arbiter
        public void stock(IIIII_Result r) {
            r.r5 = store.stock("SKU-1");
        }
    }

    /**
     * The user's target (relaycheck stress --logic CLASS and/or --store CLASS, --classpath JAR): their logic in the
     * shipped store, or their own store, loaded in this forked JVM from the user's jar named by system properties.
     * It never falls back: if the classes cannot be loaded the state cannot be built and the test errors out.
     */
    @JCStressTest
    @JCStressMeta(Relay_01_DuplicateDelivery.class)
    @State
    public static class User extends Race {
        public User() {
            super(WORLD.ofUser());
        }

        @Actor
        public void p1(IIIII_Result r) {
            p1Delivers(r);
        }

        @Actor
        public void p2(IIIII_Result r) {
            p2Delivers(r);
        }

        @Arbiter
        public void stock(IIIII_Result r) {
            r.r5 = store.stock("SKU-1");
        }
    }
}
