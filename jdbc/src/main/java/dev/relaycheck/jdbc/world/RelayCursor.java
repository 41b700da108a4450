package dev.relaycheck.jdbc.world;

/**
 * The cursor of a relay that reads rows after the last sequence it saw ({@code RelayAdapter.readsByCursor}): the
 * highest sequence its pollers have claimed. It is the relay process's memory, not the database's, so
 * relaycheck keeps it, one per relay shared by its pollers (as the model keeps one cursor per relay), and hands it
 * to the claim as {@code :cursor}. Not thread-safe: the conformance check drives one step at a time.
 */
public final class RelayCursor {
    private int highest;

    /** The highest sequence claimed so far, 0 before the first claim. */
    public int value() {
        return highest;
    }

    /** A claim took a row with sequence {@code seq}: the cursor moves past it (it never moves back). */
    void passed(int seq) {
        highest = Math.max(highest, seq);
    }

    /** Back to a fresh relay's cursor (a new run of a scenario). */
    void reset() {
        highest = 0;
    }
}
