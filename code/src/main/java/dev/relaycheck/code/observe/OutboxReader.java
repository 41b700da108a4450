package dev.relaycheck.code.observe;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads the outbox and the consumer's effects with the team's queries, on relaycheck's own connection (it sees only
 * what was committed). A lease expiry may be a timestamp or a number in the unit the relay compares with its clock
 * (seconds, milliseconds, microseconds or nanoseconds since the epoch, told apart by size: relaycheck's clock
 * starts at {@link #CLOCK_START}, where each unit has its own number of digits).
 */
public final class OutboxReader {
    /** Where relaycheck's clock starts: 10^9 seconds after the epoch, far from any wall clock of today. */
    public static final Instant CLOCK_START = Instant.ofEpochSecond(1_000_000_000L);
    private static final Duration FAR = Duration.ofDays(5 * 365);
    private static final List<String> REQUIRED = List.of("id", "aggregate", "order_key", "delivered", "owner", "lease_expiry");

    private final String outboxQuery;
    private final String effectsQuery;

    public OutboxReader(String outboxQuery, String effectsQuery) {
        this.outboxQuery = outboxQuery;
        this.effectsQuery = effectsQuery;
    }

    /** The outbox and (with an effects query) the effects as committed now; {@code recorded} stands for effects otherwise. */
    public Snapshot read(Connection observer, SortedMap<String, Integer> recorded) throws SQLException {
        List<Row> rows = new ArrayList<>();
        synchronized (observer) {
            try (Statement st = observer.createStatement(); ResultSet rs = st.executeQuery(outboxQuery)) {
                Map<String, Integer> at = columns(rs.getMetaData(), "the outbox query");
                Integer token = at.get("token");
                while (rs.next()) {
                    rows.add(new Row(text(rs.getObject(at.get("id"))), text(rs.getObject(at.get("aggregate"))),
                            OrderKey.of(rs.getObject(at.get("order_key"))), delivered(rs.getObject(at.get("delivered"))),
                            text(rs.getObject(at.get("owner"))), instant(rs.getObject(at.get("lease_expiry"))),
                            token == null ? null : text(rs.getObject(token))));
                }
            }
            SortedMap<String, Integer> effects = new TreeMap<>(recorded);
            if (effectsQuery != null) {
                effects.clear();
                try (Statement st = observer.createStatement(); ResultSet rs = st.executeQuery(effectsQuery)) {
                    int id = rs.findColumn("id");
                    while (rs.next()) {
                        effects.merge(text(rs.getObject(id)), 1, Integer::sum);
                    }
                } catch (SQLException e) {
                    throw new BadQuery("the effects query failed: " + e.getMessage().lines().findFirst().orElse("") + " (it must return "
                            + "a column named id, a row per effect applied)");
                }
            }
            rows.sort(Comparator.comparing(Row::orderKey).thenComparing(Row::id));
            return new Snapshot(rows, effects);
        }
    }

    private static Map<String, Integer> columns(ResultSetMetaData md, String what) throws SQLException {
        Map<String, Integer> at = new TreeMap<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            at.put(md.getColumnLabel(i).toLowerCase(Locale.ROOT), i);
        }
        TreeSet<String> missing = new TreeSet<>(REQUIRED);
        missing.removeAll(at.keySet());
        if (!missing.isEmpty()) {
            throw new BadQuery(what + " has no column " + String.join(", ", missing) + " (it returned " + String.join(", ", at.keySet())
                    + "; it must return id, aggregate, order_key, delivered, owner, lease_expiry and optionally token)");
        }
        return at;
    }

    private static String text(Object o) {
        return o == null ? null : o.toString();
    }

    private static boolean delivered(Object o) {
        if (o instanceof Boolean b) {
            return b;
        }
        if (o instanceof Number n) {
            return n.intValue() != 0;
        }
        throw new BadQuery("the outbox query's delivered column must be a boolean (e.g. status = 'SENT'), not " + o);
    }

    /** An expiry as an instant on relaycheck's clock; a number's unit is told by its size. */
    static Instant instant(Object o) {
        if (o == null) {
            return null;
        }
        Instant i;
        if (o instanceof Timestamp t) {
            i = t.toInstant();
        } else if (o instanceof OffsetDateTime t) {
            i = t.toInstant();
        } else if (o instanceof LocalDateTime t) {
            i = Timestamp.valueOf(t).toInstant();
        } else if (o instanceof Instant t) {
            i = t;
        } else if (o instanceof java.util.Date d) {
            i = d.toInstant();
        } else if (o instanceof Number n) {
            i = fromNumber(new BigDecimal(n.toString()));
        } else {
            throw new BadQuery("the outbox query's lease_expiry must be a timestamp or a number, not " + o.getClass().getSimpleName()
                    + " " + o);
        }
        return i;
    }

    private static Instant fromNumber(BigDecimal v) {
        BigDecimal seconds = BigDecimal.valueOf(CLOCK_START.getEpochSecond());
        BigDecimal best = null;
        int bestScale = 0;
        for (int scale : new int[]{0, 3, 6, 9}) { // s, ms, us, ns
            BigDecimal asSeconds = v.movePointLeft(scale);
            BigDecimal off = asSeconds.subtract(seconds).abs();
            if (best == null || off.compareTo(best) < 0) {
                best = off;
                bestScale = scale;
            }
        }
        BigDecimal secs = v.movePointLeft(bestScale);
        long whole = secs.longValue();
        long nanos = secs.subtract(BigDecimal.valueOf(whole)).movePointRight(9).longValue();
        return Instant.ofEpochSecond(whole, nanos);
    }

    /** Whether {@code expiry} cannot come from relaycheck's clock: it is years away from where that clock runs. */
    public static boolean offClock(Instant expiry) {
        return expiry != null && Duration.between(CLOCK_START, expiry).abs().compareTo(FAR) > 0;
    }

    /** A team's query that relaycheck cannot read: one line says what is wrong. */
    public static final class BadQuery extends RuntimeException {
        public BadQuery(String message) {
            super(message);
        }
    }
}
