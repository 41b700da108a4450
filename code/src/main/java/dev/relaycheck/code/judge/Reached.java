package dev.relaycheck.code.judge;

/**
 * Situations a check must have reached before its pass proves anything: a check that never took a lease over says
 * nothing about takeovers.
 */
public enum Reached {
    /** A lease that had run out was taken over by another instance. */
    TAKEOVER("a lease that ran out taken over by another instance"),
    /** A worker whose lease was taken over sent a statement about the row, and it changed nothing. */
    STALE_WRITE_REFUSED("a taken-over worker's statement about its row changing nothing"),
    /** An event already applied was delivered again. */
    REDELIVERY("an event delivered again after its effect was applied"),
    /** An instance crashed while it held a lease. */
    CRASH_WITH_LEASE("an instance crashing while it held a lease"),
    /** The relay handed an event to the consumer through {@code Instance.deliver}, where relaycheck sees deliveries. */
    CONSUMER_BOUNDARY("an event handed to the consumer through Instance.deliver");

    private final String what;

    Reached(String what) {
        this.what = what;
    }

    public String what() {
        return what;
    }

    /**
     * The ones a check must reach before its pass counts: a takeover, and a redelivery where relaycheck sees
     * deliveries ({@link #CONSUMER_BOUNDARY}); a relay whose consumer runs inside it (its effect read back by the
     * effects query) must instead have crashed while holding a lease, where a redelivery would start.
     */
    public static java.util.List<Reached> required(java.util.Map<Reached, Integer> reached) {
        return reached.getOrDefault(CONSUMER_BOUNDARY, 0) > 0 ? java.util.List.of(TAKEOVER, REDELIVERY)
                : java.util.List.of(TAKEOVER, CRASH_WITH_LEASE);
    }
}
