package dev.relaycheck.jdbc.adapter;

import dev.relaycheck.model.OutboxRow;

import java.util.List;

/**
 * The relay's outbox read back in the model's terms.
 *
 * @param lastToken the highest fencing token issued so far (0 before the first claim)
 * @param rows      every outbox row, in sequence order
 */
public record OutboxSnapshot(long lastToken, List<OutboxRow> rows) {
    public OutboxSnapshot {
        rows = List.copyOf(rows);
    }
}
