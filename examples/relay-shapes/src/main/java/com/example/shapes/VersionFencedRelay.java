package com.example.shapes;

import dev.relaycheck.model.OutboxRow;

/**
 * Fenced by a version column of the row (optimistic locking, as gruelbox's and db-scheduler's tables are):
 * {@code UPDATE outbox SET version = version + 1 ... WHERE id = ? AND version = ?}.
 */
public class VersionFencedRelay extends LeasedOutbox {
    @Override
    public String id() {
        return "version-fenced";
    }

    @Override
    public String description() {
        return "fences by the row's version column, not a global token counter";
    }

    @Override
    public TokenPolicy tokenPolicy() {
        return TokenPolicy.PER_ROW_VERSION;
    }

    @Override
    public long issueToken(OutboxRow row, long version) {
        return version + 1;
    }
}
