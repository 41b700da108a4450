package dev.relaycheck.model;

import java.util.List;

/** What a step observably did. Traces print these; witnesses and invariants read them. */
public sealed interface Outcome {

    /** One-word kind as jcstress-style reports and the conformance checks compare it. */
    String kind();

    record Produced(String eventId) implements Outcome {
        public String kind() {
            return "PRODUCED";
        }

        public String toString() {
            return "PRODUCED " + eventId;
        }
    }

    /** First transaction of a producer that writes the outbox outside the business transaction. */
    record BusinessWritten(String eventId) implements Outcome {
        public String kind() {
            return "BUSINESS_WRITTEN";
        }

        public String toString() {
            return "BUSINESS_WRITTEN " + eventId + " (outbox insert still to come)";
        }
    }

    record ProduceFailed(String eventId, boolean businessWriteSurvived) implements Outcome {
        public String kind() {
            return "PRODUCE_FAILED";
        }

        public String toString() {
            return "PRODUCE_FAILED " + eventId + (businessWriteSurvived ? " (business write stays committed)" : " (rolled back)");
        }
    }

    /** A lease granted by a claim; {@code replacedExpired} when it took over an expired lease. */
    record Grant(String eventId, long token, int expiry, boolean replacedExpired) {
        public String toString() {
            return eventId + "/t" + token + (replacedExpired ? " (re-claimed)" : "");
        }
    }

    record Claimed(List<Grant> grants) implements Outcome {
        public Claimed {
            grants = List.copyOf(grants);
        }

        public String kind() {
            return "CLAIMED";
        }

        public String toString() {
            return "CLAIMED " + grants;
        }
    }

    /** First half of a check-then-act claim: rows seen claimable, no lease written yet. */
    record ClaimRead(List<String> eventIds) implements Outcome {
        public ClaimRead {
            eventIds = List.copyOf(eventIds);
        }

        public String kind() {
            return "CLAIM_READ";
        }

        public String toString() {
            return "CLAIM_READ " + eventIds + " (lease write still to come)";
        }
    }

    record Applied(String eventId) implements Outcome {
        public String kind() {
            return "APPLIED";
        }

        public String toString() {
            return "APPLIED " + eventId;
        }
    }

    record Duplicate(String eventId) implements Outcome {
        public String kind() {
            return "DUPLICATE";
        }

        public String toString() {
            return "DUPLICATE " + eventId;
        }
    }

    /** First transaction of a two-transaction consumer ({@code what}: "marker" or "effect"). */
    record HalfApplied(String eventId, String what) implements Outcome {
        public String kind() {
            return "HALF_APPLIED";
        }

        public String toString() {
            return "HALF_APPLIED " + eventId + " (" + what + " committed alone)";
        }
    }

    record Acked(String eventId, long token) implements Outcome {
        public String kind() {
            return "ACKED";
        }

        public String toString() {
            return "ACKED " + eventId + "/t" + token;
        }
    }

    record Released(String eventId, long token) implements Outcome {
        public String kind() {
            return "RELEASED";
        }

        public String toString() {
            return "RELEASED " + eventId + "/t" + token;
        }
    }

    /** The current token of a row the outbox cleanup deleted: there is no row for an ack or release to match. */
    long ROW_DELETED = -2;

    /** What a row holds, for a refused ack or release: its token, no lease (-1), or nothing at all (deleted). */
    static String holding(long currentToken) {
        return currentToken == ROW_DELETED ? "row deleted" : "row holds " + (currentToken < 0 ? "no lease" : "t" + currentToken);
    }

    /**
     * An ack or release was refused; {@code currentToken} is the row's token then (-1: none; {@link #ROW_DELETED}:
     * the cleanup deleted the row).
     */
    record Stale(String eventId, long token, long currentToken) implements Outcome {
        public String kind() {
            return "STALE";
        }

        public String toString() {
            return "STALE " + eventId + "/t" + token + " (" + holding(currentToken) + ")";
        }
    }

    record Ticked(int now) implements Outcome {
        public String kind() {
            return "TICKED";
        }

        public String toString() {
            return "TICKED now=" + now;
        }
    }

    record Crashed(String actor, List<String> forgotten) implements Outcome {
        public Crashed {
            forgotten = List.copyOf(forgotten);
        }

        public String kind() {
            return "CRASHED";
        }

        public String toString() {
            return "CRASHED " + actor + " forgot " + forgotten;
        }
    }

    record AckLost(String eventId, List<String> abandoned) implements Outcome {
        public AckLost {
            abandoned = List.copyOf(abandoned);
        }

        public String kind() {
            return "ACK_LOST";
        }

        public String toString() {
            return "ACK_LOST " + eventId + " (abandons " + abandoned + ")";
        }
    }

    record DeliveryRolledBack(String eventId) implements Outcome {
        public String kind() {
            return "ROLLED_BACK";
        }

        public String toString() {
            return "ROLLED_BACK " + eventId;
        }
    }

    // ------------------------------------------------------------- retention, ack scope, settle result
    // Finer outcomes of hazards 1, 2 and 6. Each keeps the kind of the outcome it refines (a late duplicate is
    // still a DUPLICATE), and the model reports it only where a logic or scenario uses the hazard, so every
    // other search keeps its traces, its witnesses and its counts.

    /** The consumer's cleanup purged the marker {@code key} of {@code eventId}, written at tick {@code writtenAt}. */
    record Purged(String eventId, String key, int writtenAt, int now) implements Outcome {
        public String kind() {
            return "PURGED";
        }

        public String toString() {
            return "PURGED marker " + key + " of " + eventId + " (written at t=" + writtenAt + ", purged at t=" + now
                    + " by the retention policy)";
        }
    }

    /** A duplicate absorbed by a marker written {@code markerAge} ticks before, more than a lease. */
    record LateDuplicate(String eventId, int markerAge) implements Outcome {
        public String kind() {
            return "DUPLICATE";
        }

        public String toString() {
            return "DUPLICATE " + eventId + " (its marker is " + markerAge + " ticks old: a shorter retention would have lost it)";
        }
    }

    /** A renewal extended the lease on {@code eventId} to {@code expiry}; the renewer believes it holds a live lease. */
    record Renewed(String eventId, long token, int expiry) implements Outcome {
        public String kind() {
            return "RENEWED";
        }

        public String toString() {
            return "RENEWED " + eventId + "/t" + token + " to exp" + expiry;
        }
    }

    /** A renewal was refused ({@code currentToken}: the row's token then, -1 none); the poller gives up its batch. */
    record RenewalRefused(String eventId, long token, long currentToken, List<String> abandoned) implements Outcome {
        public RenewalRefused {
            abandoned = List.copyOf(abandoned);
        }

        public String kind() {
            return "RENEWAL_REFUSED";
        }

        public String toString() {
            return "RENEWAL_REFUSED " + eventId + "/t" + token + " (" + holding(currentToken) + "; abandons " + abandoned + ")";
        }
    }

    /** The search set a poller's clock {@code skew} ticks off the database's. */
    record Skewed(String poller, int skew) implements Outcome {
        public String kind() {
            return "SKEWED";
        }

        public String toString() {
            return "SKEWED " + poller + " clock " + (skew >= 0 ? "db+" + skew : "db" + skew);
        }
    }

    /** An overlapping producer's transaction allocated {@code seq} for {@code eventId}; the row is not visible yet. */
    record Begun(String eventId, int seq) implements Outcome {
        public String kind() {
            return "BEGUN";
        }

        public String toString() {
            return "BEGUN " + eventId + " seq " + seq + " (not visible until commit)";
        }
    }

    /**
     * An ack made while rows of the poller's batch were still to deliver; {@code alsoDelivered}: the rows besides
     * the acked one that the logic's ack marked DELIVERED.
     */
    record AckedMidBatch(String eventId, long token, List<String> stillToDeliver, List<String> alsoDelivered)
            implements Outcome {
        public AckedMidBatch {
            stillToDeliver = List.copyOf(stillToDeliver);
            alsoDelivered = List.copyOf(alsoDelivered);
        }

        public String kind() {
            return "ACKED";
        }

        public String toString() {
            return "ACKED " + eventId + "/t" + token + " with " + stillToDeliver + " of its batch still to deliver"
                    + (alsoDelivered.isEmpty() ? "" : "; the ack also marked " + alsoDelivered + " DELIVERED");
        }
    }

    /**
     * An ack or release ({@code what}) that matched no row. {@code unlockedAnyway}: the poller did not read the
     * result and, believing the row settled, cleared its lease by id.
     */
    record Unmatched(String what, String eventId, long token, long currentToken, boolean unlockedAnyway)
            implements Outcome {
        public static final String ACK = "ack";
        public static final String RELEASE = "release";

        public String kind() {
            return "STALE";
        }

        public String toString() {
            return "STALE " + eventId + "/t" + token + " (" + what + " matched no row: "
                    + (currentToken == ROW_DELETED ? "it was deleted" : "it holds " + (currentToken < 0 ? "no lease" : "t" + currentToken)) + ")"
                    + (unlockedAnyway ? "; the poller ignored that and unlocked the row by id" : "; the poller knows it did not apply");
        }
    }

    /**
     * The outbox cleanup deleted {@code deleted} (each as it was just before, in sequence order) at tick {@code now}.
     * A row it takes that was not DELIVERED is an event the relay can no longer deliver, unless a poller that holds it
     * still does.
     */
    record CleanedUp(List<OutboxRow> deleted, int now) implements Outcome {
        public CleanedUp {
            deleted = List.copyOf(deleted);
        }

        public String kind() {
            return "CLEANED_UP";
        }

        /** Whether it deleted a row that was not DELIVERED yet (a row a poller may hold, or one never claimed). */
        public boolean tookUndelivered() {
            return deleted.stream().anyMatch(OutboxRow::isPending);
        }

        public String toString() {
            return "CLEANED_UP at t=" + now + ": deleted " + deleted.stream().map(OutboxRow::toString)
                    .collect(java.util.stream.Collectors.joining(", "));
        }
    }

    /**
     * An overlapping producer's transaction committed; {@code late} when a row with a later sequence was visible
     * already (the commit order differed from the sequence order, where a relay could see it).
     */
    record Committed(String eventId, boolean late) implements Outcome {
        public String kind() {
            return "COMMITTED";
        }

        public String toString() {
            return "COMMITTED " + eventId + (late ? " (after a row with a later sequence was visible)" : "");
        }
    }
}
