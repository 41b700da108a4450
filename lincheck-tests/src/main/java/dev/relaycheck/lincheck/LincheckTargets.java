package dev.relaycheck.lincheck;

import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.catalogue.LogicCatalogue;
import dev.relaycheck.model.store.CheckThenActClaimStore;
import dev.relaycheck.model.store.CheckThenInsertDedupStore;
import dev.relaycheck.model.store.ConcurrentRelayStore;
import dev.relaycheck.model.store.ReadThenWriteAckStore;
import dev.relaycheck.model.store.RelayStores;
import dev.relaycheck.model.store.UserTarget;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Every target the Lincheck checks know: the correct store, the three broken stores, and every catalogue
 * variant whose mistake the store's operations can show. Two catalogue variants cannot be seen through the
 * store at all; {@link #NOT_COVERED} says why, and the explorer catches them instead.
 */
public final class LincheckTargets {
    private LincheckTargets() {
    }

    public static final String CORRECT = "correct";

    /**
     * Variants whose store operations behave exactly like the correct logic's: the mistake lives in a step the
     * store does not have. Reported, never silently dropped.
     */
    public static final Map<String, String> NOT_COVERED = new TreeMap<>(Map.of(
            "ack-before-deliver", "the mistake is the poller's order of ack and deliver; each store operation is "
                    + "unchanged, so no linearizability check can see it (the explorer catches it: NO_LOST_EVENT)",
            "outbox-outside-transaction", "the mistake is in the producer's transaction; the store has no produce "
                    + "operation (the explorer catches it: PRODUCE_ATOMIC)",
            // the store has no inbox cleanup and its ack names one row
            "purge-at-ack", "the mistake is the consumer's inbox cleanup, a step the store does not have (the explorer "
                    + "catches it: EFFECT_AT_MOST_ONCE)",
            "retention-shorter-than-redelivery", "the mistake is the consumer's inbox cleanup, a step the store does not "
                    + "have (the explorer catches it: EFFECT_AT_MOST_ONCE)",
            "batch-ack-whole-batch", "the store's ack names one row, not the poller's batch, so it cannot mark the rest "
                    + "of a batch (the explorer catches it: NO_LOST_EVENT)",
            "renewal-by-owner", "the mistake is in the lease renewal, which these checks' operations leave out (one "
                    + "more operation widens every target's search); jcstress races it (Lease_06_RenewalAfterTakeover) "
                    + "and the explorer catches it: SINGLE_LIVE_LEASE",
            "renewal-ignores-expiry", "the mistake is in the lease renewal, which these checks' operations leave out "
                    + "(one more operation widens every target's search); jcstress races it "
                    + "(Lease_06_RenewalAfterTakeover) and the explorer catches it: SINGLE_LIVE_LEASE",
            "app-clock-expiry", "the mistake reads a poller's own clock; the store has one clock, the database's, so "
                    + "no operation differs (the explorer catches it under clock skew: SINGLE_LIVE_LEASE)",
            "cursor-by-sequence", "the mistake needs overlapping producer transactions; the store has no produce "
                    + "operation (the explorer catches it: NO_LOST_EVENT)",
            "cleanup-deletes-in-flight", "the mistake is the outbox cleanup job, a step the store does not have (the "
                    + "explorer catches it: NO_LOST_EVENT)"));

    /**
     * Variants that only a race shows: each operation, run alone, answers exactly as the correct one does.
     * The split consumers differ only while another delivery runs between their two transactions; the
     * check-then-act claim only when another claim runs between its read and its write.
     */
    private static final Set<String> RACE_ONLY_VARIANTS = Set.of("check-then-act-claim", "marker-before-effect", "effect-before-marker");

    /** All targets: correct first, then the broken stores, then the catalogue variants in catalogue order. */
    public static List<Target> all() {
        List<Target> out = new ArrayList<>();
        RelayLogic correct = LogicCatalogue.correct();
        out.add(new Target(CORRECT, Target.Kind.CORRECT, correct.description(), "", true,
                (e, s, l) -> new ConcurrentRelayStore(correct, e, s, l)));
        out.add(new Target("check-then-act-claim-store", Target.Kind.BROKEN_STORE,
                "claim reads the claimable rows without a lock, then writes leases without looking again",
                Invariant.SINGLE_LIVE_LEASE.name(), false, (e, s, l) -> new CheckThenActClaimStore(correct, e, s, l)));
        out.add(new Target("check-then-insert-dedup-store", Target.Kind.BROKEN_STORE,
                "the consumer looks the marker up in one transaction and inserts it with the effect in another",
                Invariant.EFFECT_AT_MOST_ONCE.name(), false, (e, s, l) -> new CheckThenInsertDedupStore(correct, e, s, l)));
        out.add(new Target("read-then-write-ack-store", Target.Kind.BROKEN_STORE,
                "the ack checks the token on one read of the row and writes DELIVERED in a second statement",
                Invariant.STALE_ACK_REJECTED.name(), false, (e, s, l) -> new ReadThenWriteAckStore(correct, e, s, l)));
        for (RelayLogic logic : LogicCatalogue.variants()) {
            if (!NOT_COVERED.containsKey(logic.id())) {
                out.add(new Target(logic.id(), Target.Kind.BROKEN_LOGIC, logic.description(),
                        logic.expectedViolation().map(Enum::name).orElse(""),
                        !RACE_ONLY_VARIANTS.contains(logic.id()), storeFor(logic)));
            }
        }
        return List.copyOf(out);
    }

    /** The user's target: their logic in the shipped store, or their own store; it must pass every check it can run. */
    public static Target user(UserTarget user) {
        return new Target(user.id(), Target.Kind.USER, user.describe(), "", true, user::newStore,
                "relaycheck lincheck " + user.rerunArgs());
    }

    public static Optional<Target> byId(String id) {
        return all().stream().filter(t -> t.id().equals(id)).findFirst();
    }

    /**
     * The store that runs a logic. The store's own claim is atomic and ignores {@code claimShape()}, so a logic
     * that claims check-then-act runs on the store that does exactly that.
     */
    private static Target.StoreFactory storeFor(RelayLogic logic) {
        return (e, s, l) -> RelayStores.shipped(logic, e, s, l);
    }
}
