package dev.relaycheck.model;

/** The named properties relaycheck judges a relay by. Tests and reports name the one that broke. */
public enum Invariant {
    EFFECT_AT_MOST_ONCE(Kind.STATE,
            "every event's effect is applied at most once, and stock equals initial minus the applied quantities"),
    MARKER_IFF_EFFECT(Kind.STATE,
            "an applied_event marker exists exactly when the event's effect exists"),
    STALE_ACK_REJECTED(Kind.TRANSITION,
            "an ack or release with a token other than the row's current token changes nothing, "
                    + "and every claim issues a token above every earlier one"),
    NO_LOST_EVENT(Kind.STATE,
            "a DELIVERED outbox row always has its effect applied, and no committed row is passed over unread by a relay's cursor"),
    PRODUCE_ATOMIC(Kind.STATE,
            "a committed business write always has its outbox row and an outbox row always has its business write"),
    AGGREGATE_ORDER(Kind.STATE,
            "effects of one aggregate are applied in sequence order"),
    SINGLE_LIVE_LEASE(Kind.TRANSITION,
            "a claim replaces a lease only if it was absent or expired, and a renewal extends only the renewer's own lease: "
                    + "at most one live lease per row"),
    EVENTUAL_DELIVERY(Kind.LIVENESS,
            "once faults stop and pollers run fairly past every lease, every produced event ends DELIVERED "
                    + "with its effect applied exactly once");

    /** Where an invariant is checked. */
    public enum Kind {
        /** On every reachable state. */
        STATE,
        /** On every (state before, step, state after) triple. */
        TRANSITION,
        /** By a healing run from explored states. */
        LIVENESS
    }

    private final Kind kind;
    private final String message;

    Invariant(Kind kind, String message) {
        this.kind = kind;
        this.message = message;
    }

    public Kind kind() {
        return kind;
    }

    public String message() {
        return message;
    }
}
