package dev.relaycheck.model;

/**
 * Interesting outcomes a scenario can require to reach. A check whose scenario never reaches a required
 * witness is vacuous: it passed without exercising the hazard it exists for.
 */
public enum Witness {
    STALE_ACK("a stale-token acknowledgement or release was rejected"),
    DUPLICATE_ABSORBED("a duplicate delivery was answered DUPLICATE without a second effect"),
    LEASE_RECLAIMED("a lease was re-claimed after it expired"),
    DELIVERY_RETRIED("a failed delivery was released so the row could be retried"),
    // hazards 1, 2 and 6 (issue 20): shown only by the finer outcomes a scenario that requires them turns on
    LATE_REDELIVERY("a redelivery was absorbed by a marker older than a lease (what a retention of one lease would have purged)"),
    ACK_MID_BATCH("an ack was made while rows of the poller's batch were still to deliver"),
    UNMATCHED_ACK("an ack matched no row, and the poller was told so"),
    UNMATCHED_RELEASE("a release matched no row, and the poller was told so");

    private final String description;

    Witness(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }

    /** The witnesses one step's outcome shows. */
    public static java.util.List<Witness> seenIn(Outcome outcome) {
        if (outcome instanceof Outcome.Stale) {
            return java.util.List.of(STALE_ACK);
        }
        if (outcome instanceof Outcome.Duplicate) {
            return java.util.List.of(DUPLICATE_ABSORBED);
        }
        if (outcome instanceof Outcome.Released) {
            return java.util.List.of(DELIVERY_RETRIED);
        }
        if (outcome instanceof Outcome.LateDuplicate) {
            return java.util.List.of(DUPLICATE_ABSORBED, LATE_REDELIVERY);
        }
        if (outcome instanceof Outcome.AckedMidBatch) {
            return java.util.List.of(ACK_MID_BATCH);
        }
        if (outcome instanceof Outcome.Unmatched u) {
            return java.util.List.of(STALE_ACK, u.what().equals(Outcome.Unmatched.ACK) ? UNMATCHED_ACK : UNMATCHED_RELEASE);
        }
        if (outcome instanceof Outcome.Claimed c && c.grants().stream().anyMatch(Outcome.Grant::replacedExpired)) {
            return java.util.List.of(LEASE_RECLAIMED);
        }
        return java.util.List.of();
    }
}
