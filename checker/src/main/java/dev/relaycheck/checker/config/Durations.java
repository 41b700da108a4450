package dev.relaycheck.checker.config;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as people write relay settings: {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}, {@code 7d},
 * or several parts ({@code 1h30m}); a bare {@code 0} is zero. Held as milliseconds; printed back in the same
 * form, largest unit first ({@code 1h2m3s}, {@code 450ms}).
 */
public final class Durations {
    private Durations() {
    }

    private static final Pattern PART = Pattern.compile("(\\d{1,12})(ms|s|m|h|d)");
    private static final long SECOND = 1_000;
    private static final long MINUTE = 60 * SECOND;
    private static final long HOUR = 60 * MINUTE;
    private static final long DAY = 24 * HOUR;

    /** Milliseconds of {@code text}; {@link IllegalArgumentException} naming {@code what} when it is not a duration. */
    public static long parse(String text, String what) {
        String t = text == null ? "" : text.trim();
        if (t.equals("0")) {
            return 0;
        }
        Matcher m = PART.matcher(t);
        long total = 0;
        int at = 0;
        while (at < t.length() && m.find(at) && m.start() == at) {
            try {
                total = Math.addExact(total, Math.multiplyExact(Long.parseLong(m.group(1)), unit(m.group(2))));
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException(what + " '" + text + "' is longer than this tool can count");
            }
            at = m.end();
        }
        if (t.isEmpty() || at != t.length()) {
            throw new IllegalArgumentException(what + " '" + text + "' is not a duration like 500ms, 30s, 2m, 1h, 7d or 1h30m");
        }
        return total;
    }

    private static long unit(String u) {
        return switch (u) {
            case "ms" -> 1;
            case "s" -> SECOND;
            case "m" -> MINUTE;
            case "h" -> HOUR;
            default -> DAY;
        };
    }

    /** {@code ms} as {@code 1d2h}, {@code 7m20s}, {@code 450ms} or {@code 0s}. */
    public static String format(long ms) {
        if (ms == 0) {
            return "0s";
        }
        StringBuilder b = new StringBuilder();
        long rest = ms;
        for (long[] u : new long[][]{{DAY, 'd'}, {HOUR, 'h'}, {MINUTE, 'm'}, {SECOND, 's'}}) {
            if (rest >= u[0]) {
                b.append(rest / u[0]).append((char) u[1]);
                rest %= u[0];
            }
        }
        if (rest > 0) {
            b.append(rest).append("ms");
        }
        return b.toString();
    }
}
