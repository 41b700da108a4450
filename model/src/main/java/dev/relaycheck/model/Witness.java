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
    // lease, settle and timing hazards: listed in a report only where a search reached them or a scenario requires them
    LATE_REDELIVERY("a redelivery was absorbed by a marker older than a lease (what a retention of one lease would have purged)", false),
    ACK_MID_BATCH("an ack was made while rows of the poller's batch were still to deliver", false),
    UNMATCHED_ACK("an ack matched no row, and the poller was told so", false),
    UNMATCHED_RELEASE("a release matched no row, and the poller was told so", false),
    LEASE_RENEWED("a poller renewed (heartbeat) the lease it was working under", false),
    RENEWAL_REFUSED("a renewal of a lease that was taken over or had lapsed was refused", false),
    CLOCK_SKEWED("a poller ran with its clock off from the database's", false),
    LATE_COMMIT("a row committed after a row with a later sequence was visible", false),
    ROW_CLEANED_UP("the outbox cleanup deleted a DELIVERED row", false);

    private final String description;
    /** Listed in every report; the later ones only where reached or required, so older reports read as before. */
    private final boolean alwaysListed;

    Witness(String description) {
        this(description, true);
    }

    Witness(String description, boolean alwaysListed) {
        this.description = description;
        this.alwaysListed = alwaysListed;
    }

    /**
     * The witnesses a report lists, in enum order: the original four always, a later one only where a search
     * reached it ({@code reached}) or a scenario requires it.
     */
    public static java.util.List<Witness> listed(java.util.function.Predicate<Witness> reachedOrRequired) {
        java.util.List<Witness> out = new java.util.ArrayList<>();
        for (Witness w : values()) {
            if (w.alwaysListed || reachedOrRequired.test(w)) {
                out.add(w);
            }
        }
        return out;
    }

    public String description() {
        return description;
    }

    /**
     * The witnesses the logic's declared shape makes unreachable in the model, each with why, in enum order:
     * decided from the shape alone (never from a search), so a check does not call a witness the logic cannot
     * reach vacuous. A logic whose shape cannot be asked (it throws) gets none: the search reports the throw.
     */
    public static java.util.Map<Witness, String> notApplicableTo(RelayLogic logic) {
        java.util.Map<Witness, String> out = new java.util.EnumMap<>(Witness.class);
        boolean together;
        boolean dedups;
        try {
            // as the model honours it: only with the one-transaction consumer and delivery before the ack
            together = logic.deliversAndAcksTogether() && !logic.acksBeforeDelivering()
                    && logic.consumerShape() == RelayLogic.ConsumerShape.ONE_TRANSACTION;
            dedups = logic.consumerChecksMarker();
        } catch (RuntimeException e) {
            return out;
        }
        if (together) {
            String redelivery = "its delivery and ack commit in one transaction (deliversAndAcksTogether): an effect "
                    + "commits only with its row's ack, so no lost ack leaves an applied event PENDING to be delivered again";
            out.put(DUPLICATE_ABSORBED, redelivery);
            out.put(LATE_REDELIVERY, redelivery);
            out.put(ACK_MID_BATCH, "each row's ack is part of its own delivery transaction (deliversAndAcksTogether) and "
                    + "marks that row alone, so no ack can mark rows of the batch still to deliver");
            out.put(UNMATCHED_ACK, "its ack is part of the delivery transaction (deliversAndAcksTogether): an ack that "
                    + "matches no row rolls the delivery back with it and shows as STALE_ACK; there is no separate ack "
                    + "whose result the poller could misread");
        } else if (!dedups) {
            String noMarker = "its consumer never looks the marker up (consumerChecksMarker false), so no delivery is "
                    + "answered DUPLICATE";
            out.put(DUPLICATE_ABSORBED, noMarker);
            out.put(LATE_REDELIVERY, noMarker);
        }
        return out;
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
        if (outcome instanceof Outcome.Renewed) {
            return java.util.List.of(LEASE_RENEWED);
        }
        if (outcome instanceof Outcome.RenewalRefused) {
            return java.util.List.of(RENEWAL_REFUSED);
        }
        if (outcome instanceof Outcome.Skewed sk && sk.skew() != 0) {
            return java.util.List.of(CLOCK_SKEWED);
        }
        if (outcome instanceof Outcome.Committed c && c.late()) {
            return java.util.List.of(LATE_COMMIT);
        }
        if (outcome instanceof Outcome.CleanedUp c && c.deleted().stream().anyMatch(r -> !r.isPending())) {
            return java.util.List.of(ROW_CLEANED_UP);
        }
        if (outcome instanceof Outcome.Claimed c && c.grants().stream().anyMatch(Outcome.Grant::replacedExpired)) {
            return java.util.List.of(LEASE_RECLAIMED);
        }
        return java.util.List.of();
    }
}
