package dev.relaycheck.jdbc.relay;

import dev.relaycheck.jdbc.adapter.RelaySqlFile;

/** The two ways the reference relay's atomic claim is written; both lease a row only under a re-checked condition. */
public enum ClaimForm {
    /**
     * {@code SELECT ... ORDER BY seq FETCH FIRST n ROWS ONLY FOR UPDATE SKIP LOCKED}, then a conditional
     * UPDATE of each selected row (the reference file as shipped). Note: H2 2.5.252 locks every row matching
     * the WHERE clause, not only the n it returns; PostgreSQL locks only the rows it returns.
     */
    SKIP_LOCKED("skip-locked"),
    /** A plain SELECT of candidates, then {@code UPDATE ... WHERE event_id = ? AND <claimable>} per row. */
    CONDITIONAL_UPDATE("conditional-update");

    private final String id;

    ClaimForm(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    /** The reference file in this form: the conditional-update claim is the reference without the row locks. */
    public RelaySqlFile apply(RelaySqlFile reference) {
        return this == SKIP_LOCKED ? reference : reference.edit("claim-select", "\nFOR UPDATE SKIP LOCKED", "");
    }

    public static java.util.Optional<ClaimForm> byId(String id) {
        return java.util.Arrays.stream(values()).filter(f -> f.id.equals(id)).findFirst();
    }
}
