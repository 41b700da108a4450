package dev.relaycheck.model;

/** Status column of an outbox row. */
public enum RowStatus {
    PENDING,
    DELIVERED
}
