package dev.relaycheck.jdbc;

/** The two ways an atomic claim is written in SQL; both lease a row only under a re-checked condition. */
public enum ClaimForm {
    /**
     * {@code SELECT ... ORDER BY seq FETCH FIRST n ROWS ONLY FOR UPDATE SKIP LOCKED}, then a conditional
     * UPDATE of each selected row. Note: H2 2.5.252 locks every row matching the WHERE clause, not only the
     * n it returns, so a concurrent claimer skips them all until this claim commits.
     */
    SKIP_LOCKED,
    /** A plain SELECT of candidates, then {@code UPDATE ... WHERE event_id = ? AND <claimable>} per row. */
    CONDITIONAL_UPDATE
}
