package dev.relaycheck.jdbc.adapter;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What reads the database's own clock, in H2 and PostgreSQL. A relay must take the time as a parameter:
 * relaycheck moves a logical clock, and a wall-clock lease expires on its own schedule, so a relay that
 * reads it cannot be checked deterministically.
 */
public final class WallClock {
    private static final Pattern CALL = Pattern.compile("(?i)(?<![:\\w])(current_timestamp|current_time|current_date|"
            + "localtimestamp|localtime|sysdate|systimestamp|now\\s*\\(|clock_timestamp|statement_timestamp|"
            + "transaction_timestamp|timeofday|getdate\\s*\\(|unix_timestamp)");

    private WallClock() {
    }

    /** The clock function {@code sql} calls outside string literals and comments (e.g. {@code now}), if any. */
    public static Optional<String> readBy(String sql) {
        Matcher m = CALL.matcher(NamedSql.parse(sql).code());
        return m.find() ? Optional.of(m.group(1).replaceAll("[\\s(]", "")) : Optional.empty();
    }

    /** The one line relaycheck says about it. */
    public static String refusal(String where, String function) {
        return where + " reads the database's clock (" + function + "): relaycheck cannot check a wall-clock relay "
                + "deterministically; take the time as :now (logical ticks)";
    }

    /** A relay that read the wall clock while relaycheck drove it (found in the SQL a Java adapter sent). */
    public static final class ReadException extends RuntimeException {
        public ReadException(String message) {
            super(message);
        }
    }
}
