package dev.relaycheck.stress;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.store.ConcurrentRelayStore;
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
 * Hazard: the owner has delivered E1 and sends its ack just as its lease runs out. Concurrently the clock
 * ticks (the lease expires) and a second poller re-claims the row. Whatever the order, one of the two acks
 * wins and the other is rejected; an ack that arrives after expiry but before any re-claim is still
 * accepted, because fencing is by token, not by time. An ack that checks the token in one statement and
 * writes DELIVERED in another lets a re-claim slip in between (STALE_ACK_REJECTED).
 *
 * <p>Set-up: p1 claimed E1 at time 0 (t1, lease 1 tick, so it expires at 1) and delivered it (stock 10 - 3).
 * The owner actor reads the clock, then acks; the other actor ticks the clock, then re-claims, delivers and
 * acks as p2. Outcome {@code r1, r2, r3, r4, r5}: the owner saw its lease already expired (1) or not (0),
 * the owner's ack accepted, p2's token (0: nothing claimable), p2's ack accepted, final stock.
 *
 * <p>Run just this harness (report in results/jcstress/Lease_03_AckRacesExpiry.txt):
 * <pre>java -cp stress-tests/target/jcstress.jar dev.relaycheck.stress.Curriculum --tests Lease_03 --out results/jcstress</pre>
 *
 * <p>Typical quick-mode result: {@code Correct} about 3/4 {@code 0, 1, 0, 0, 7} and 1/4
 * {@code [01], 0, 2, 1, 7}, with a handful of {@code 1, 1, 0, 0, 7} (acked after expiry, before the re-claim:
 * accepted); {@code ReadThenWriteAckStore} shows {@code [01], 1, 2, 0, 7} or {@code [01], 1, 2, 1, 7} in
 * the ~1% of samples where p2's claim lands between the owner's read and its write.
 */
@Description("the owner's ack races a clock tick and a re-claim; exactly one ack wins")
@Outcome(id = "0, 1, 0, 0, 7", expect = ACCEPTABLE,
        desc = "the owner acked inside its lease; p2 found the row DELIVERED")
@Outcome(id = "1, 1, 0, 0, 7", expect = ACCEPTABLE,
        desc = "(rare) the owner's lease had expired but nobody had re-claimed yet: its ack was accepted (fenced by token, not time)")
@Outcome(id = "[01], 0, 2, 1, 7", expect = ACCEPTABLE_INTERESTING,
        desc = "the tick and p2's re-claim (t2) beat the owner: t1 was rejected, p2's redelivery was absorbed, p2 acked")
@Outcome(id = "[01], 1, 2, 0, 7", expect = FORBIDDEN,
        desc = "the owner's t1 ack was accepted after p2 re-claimed with t2, and p2's ack failed (STALE_ACK_REJECTED)")
@Outcome(id = "[01], 1, 2, 1, 7", expect = FORBIDDEN,
        desc = "both the owner's t1 ack and p2's t2 ack were accepted: the stale ack passed the fence (STALE_ACK_REJECTED)")
@Outcome(id = "[01], [01], \\d+, [01], 4", expect = FORBIDDEN, desc = "E1's effect was applied twice (EFFECT_AT_MOST_ONCE)")
@Outcome(expect = FORBIDDEN, desc = "any other outcome (no invariant named: a state this harness does not expect at all)")
public class Lease_03_AckRacesExpiry {

    static final World WORLD = new World(List.of(new Event("E1", "SKU-1", 1, 3)), Map.of("SKU-1", 10), 1);

    /** p1 holds t1 (expires at 1) and its delivery has committed; only the ack is left. */
    public abstract static class Race extends RelayRace {
        final long ownerToken;
        final int expiry;

        Race(Subject subject) {
            super(subject);
            ownerToken = claimOne("p1");
            expiry = store.row("E1").lease().expiry();
            deliver("E1", ownerToken);
        }

        void ownerAcks(IIIII_Result r) {
            r.r1 = store.now() >= expiry ? 1 : 0;
            r.r2 = ack("E1", ownerToken);
        }

        void clockThenP2(IIIII_Result r) {
            store.tick();
            long token = claimOne("p2");
            r.r3 = (int) token;
            if (token > 0) {
                deliver("E1", token);
                r.r4 = ack("E1", token);
            }
        }
    }

    @JCStressTest
    @JCStressMeta(Lease_03_AckRacesExpiry.class)
    @State
    public static class Correct extends Race {
        public Correct() {
            super(WORLD.in(Catalogue.correct(), ConcurrentRelayStore::new));
        }

        @Actor
        public void owner(IIIII_Result r) {
            ownerAcks(r);
        }

        @Actor
        public void p2(IIIII_Result r) {
            clockThenP2(r);
        }

        @Arbiter
        public void stock(IIIII_Result r) {
            r.r5 = store.stock("SKU-1");
        }
    }

    /** ReadThenWriteAckStore: the correct logic on a store whose ack reads, decides, then writes. */
    @JCStressTest
    @JCStressMeta(Lease_03_AckRacesExpiry.class)
    @State
    public static class ReadThenWriteAckStore extends Race {
        public ReadThenWriteAckStore() {
            super(WORLD.in(Catalogue.correct(), dev.relaycheck.model.store.ReadThenWriteAckStore::new));
        }

        @Actor
        public void owner(IIIII_Result r) {
            ownerAcks(r);
        }

        @Actor
        public void p2(IIIII_Result r) {
            clockThenP2(r);
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
    @JCStressMeta(Lease_03_AckRacesExpiry.class)
    @State
    public static class User extends Race {
        public User() {
            super(WORLD.ofUser());
        }

        @Actor
        public void owner(IIIII_Result r) {
            ownerAcks(r);
        }

        @Actor
        public void p2(IIIII_Result r) {
            clockThenP2(r);
        }

        @Arbiter
        public void stock(IIIII_Result r) {
            r.r5 = store.stock("SKU-1");
        }
    }
}
