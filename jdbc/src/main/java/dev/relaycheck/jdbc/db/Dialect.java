package dev.relaycheck.jdbc.db;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Optional;

/** The databases relaycheck runs a relay on; where their SQL differs, relaycheck's own statements differ. */
public enum Dialect {
    H2("h2"),
    POSTGRES("postgres");

    private final String id;

    Dialect(String id) {
        this.id = id;
    }

    /** The name a relay file uses for this database's own version of a statement ({@code -- name: ack [postgres]}). */
    public String id() {
        return id;
    }

    public static Optional<Dialect> byId(String id) {
        return Arrays.stream(values()).filter(d -> d.id.equals(id)).findFirst();
    }

    /** The dialect of the database behind {@code c}. */
    public static Dialect of(Connection c) throws SQLException {
        String product = c.getMetaData().getDatabaseProductName().toLowerCase();
        if (product.contains("postgres")) {
            return POSTGRES;
        }
        if (product.contains("h2")) {
            return H2;
        }
        throw new SQLException("relaycheck runs relays on H2 and PostgreSQL, not on " + product);
    }

    /**
     * An insert of the consumer's marker that never fails on an existing key (the no-dedup consumer's
     * marker): H2's {@code MERGE ... KEY} has no PostgreSQL counterpart, which says {@code ON CONFLICT}.
     */
    public String upsertMarker() {
        return switch (this) {
            case H2 -> "MERGE INTO applied_event (marker_key, event_id) KEY (marker_key) VALUES (?, ?)";
            case POSTGRES -> "INSERT INTO applied_event (marker_key, event_id) VALUES (?, ?) ON CONFLICT (marker_key) DO NOTHING";
        };
    }
}
