package dev.relaycheck.checker.config;

import java.util.ArrayList;
import java.util.List;

/**
 * How long a relay waits before retrying a row whose lease expired: {@code 10s} (the same each time),
 * {@code 10s,30s,2m} (one per retry, the last repeating) or {@code 10s*2} (doubling: 10s, 20s, 40s, ...).
 *
 * @param text   as given
 * @param delays the listed delays (one for a fixed backoff)
 * @param factor for {@code D*F}, what each retry multiplies the previous delay by; 0 for a list
 */
public record Backoff(String text, List<Long> delays, long factor) {
    public static final Backoff NONE = new Backoff("0", List.of(0L), 0);

    public Backoff {
        delays = List.copyOf(delays);
    }

    public static Backoff parse(String text) {
        String t = text.trim();
        int star = t.indexOf('*');
        if (star >= 0) {
            long first = Durations.parse(t.substring(0, star), "--backoff's first delay");
            String f = t.substring(star + 1).trim();
            if (!f.matches("\\d{1,4}") || Long.parseLong(f) < 1) {
                throw new IllegalArgumentException("--backoff '" + text + "': the factor after * must be a whole number >= 1");
            }
            return new Backoff(t, List.of(first), Long.parseLong(f));
        }
        List<Long> delays = new ArrayList<>();
        for (String part : t.split(",", -1)) {
            delays.add(Durations.parse(part, "--backoff delay"));
        }
        return new Backoff(t, delays, 0);
    }

    /** The wait before retry {@code retry} (1: the second attempt). */
    public long before(int retry) {
        if (factor > 0) {
            long d = delays.get(0);
            for (int i = 1; i < retry; i++) {
                d = Math.multiplyExact(d, factor);
            }
            return d;
        }
        return delays.get(Math.min(retry, delays.size()) - 1);
    }
}
