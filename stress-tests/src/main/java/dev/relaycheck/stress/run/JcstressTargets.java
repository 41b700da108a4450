package dev.relaycheck.stress.run;

import dev.relaycheck.model.CorrectRelayLogic;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.catalogue.LogicCatalogue;

import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Maps a harness's nested class to the summary's target id: the class is named after the target in
 * PascalCase, so {@code ClaimIgnoresLease} is the catalogue variant {@code claim-ignores-lease},
 * {@code CheckThenActClaimStore} the broken store {@code check-then-act-claim-store}, {@code Correct} the
 * correct logic.
 */
public final class JcstressTargets {
    private JcstressTargets() {
    }

    /** Kebab-case names of the model's broken concurrent stores. */
    public static final List<String> BROKEN_STORES = List.of(
            "check-then-act-claim-store", "check-then-insert-dedup-store", "read-then-write-ack-store");

    /** {@code ClaimIgnoresLease} to {@code claim-ignores-lease}. */
    public static String targetOf(String nestedClassName) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < nestedClassName.length(); i++) {
            char c = nestedClassName.charAt(i);
            if (Character.isUpperCase(c) && i > 0) {
                sb.append('-');
            }
            sb.append(Character.toLowerCase(c));
        }
        return sb.toString().toLowerCase(Locale.ROOT);
    }

    public static boolean isCorrect(String target) {
        return CorrectRelayLogic.ID.equals(target);
    }

    /** The target id of the harnesses' {@code User} nested class, before it is renamed after the user's classes. */
    public static final String USER = "user";

    /** The user's target: like the correct logic, it must pass (no forbidden outcome, every witness seen). */
    public static boolean isUser(String target) {
        return USER.equals(target);
    }

    /**
     * Catalogue variants no harness runs, and why: their mistake needs something the thread-safe store does not
     * have (the explorer catches them). Reported, never silently dropped.
     */
    public static final java.util.Map<String, String> NOT_IN_CURRICULUM = new java.util.TreeMap<>(java.util.Map.of(
            "purge-at-ack", "the consumer's inbox cleanup is no store operation; a purge before a redelivery is a "
                    + "schedule, not a race (the explorer: EFFECT_AT_MOST_ONCE)",
            "retention-shorter-than-redelivery", "the consumer's inbox cleanup is no store operation (the explorer: "
                    + "EFFECT_AT_MOST_ONCE)",
            "batch-ack-whole-batch", "the store's ack names one row, not a batch; the mistake shows on one thread "
                    + "(the explorer: NO_LOST_EVENT)",
            "app-clock-expiry", "the mistake reads each poller's own clock; the store has one clock, the database's "
                    + "(the explorer catches it under clock skew: SINGLE_LIVE_LEASE)",
            "cursor-by-sequence", "the mistake needs overlapping producer transactions; the store's rows are all "
                    + "committed up front (the explorer catches it: NO_LOST_EVENT)",
            "cleanup-deletes-in-flight", "the outbox cleanup job is no store operation; a purge before a failed "
                    + "delivery is a schedule, not a race (the explorer: NO_LOST_EVENT)"));

    /** Every id the summary may use: {@code correct}, the catalogue variants a harness runs, the broken stores. */
    public static TreeSet<String> known() {
        TreeSet<String> ids = new TreeSet<>(BROKEN_STORES);
        LogicCatalogue.all().stream().map(RelayLogic::id).filter(id -> !NOT_IN_CURRICULUM.containsKey(id)).forEach(ids::add);
        return ids;
    }
}
