package dev.relaycheck.model;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The text form of a {@link Scenario}: one {@code key value} per line, {@code #} starts a comment line. It is
 * what a scenario file holds, what {@code relaycheck scenarios --show} prints, and the scenario part of a
 * replay record, so a written scenario always reads back equal.
 *
 * <pre>
 * name          mixed                      (default: the file's name without its extension)
 * description   free text to the end of the line
 * pollers       p1 p2                      (names, in scheduling order; required)
 * stock         SKU-1 10                   (one line per aggregate)
 * event         E1 SKU-1 2                 (id aggregate quantity [seq N] [payload TEXT]; in commit order)
 * batch         2                          (default 1)
 * lease         2                          (lease the scenario asks for, in ticks; default 2)
 * ticks         lease+2                    (clock bound: N, or lease+K = K ticks past the lease the logic grants; default 0)
 * crashes / lost-acks / deliver-fails / produce-fails   N   (fault bounds; default 0)
 * produced-during-run   false              (true: Produce steps commit the events during the run)
 * requires      STALE_ACK LEASE_RECLAIMED  (witnesses the search must reach; default none)
 * renewals      1                          (lease renewals the pollers may make; default 0, written only if set)
 * max-skew      1                          (each poller's clock is off by up to this many ticks; default 0)
 * producers-overlap   true                 (producer transactions overlap: commit order differs from seq order)
 * instance-ids  shared                     (unique, shared by the pollers, or reused by a restart of the first; default unique)
 * cleanup       true                       (the outbox cleanup job runs between the relay's transactions; default false)
 * </pre>
 */
public final class ScenarioText {
    /** Every key, in the order {@link #write} prints them. */
    public static final List<String> KEYS = List.of("name", "description", "pollers", "stock", "event", "batch", "lease",
            "ticks", "crashes", "lost-acks", "deliver-fails", "produce-fails", "produced-during-run", "requires",
            "renewals", "max-skew", "producers-overlap", "instance-ids", "cleanup");
    private static final Set<String> REPEATABLE = Set.of("stock", "event");

    private ScenarioText() {
    }

    /** A problem at one line of a scenario text (1-based). */
    public static final class FormatException extends IllegalArgumentException {
        private final int line;

        public FormatException(int line, String message) {
            super(message);
            this.line = line;
        }

        public int line() {
            return line;
        }
    }

    /** The key lines of {@code s}, each ending in a newline; {@link #parse} reads them back to an equal scenario. */
    public static String write(Scenario s) {
        StringBuilder b = new StringBuilder();
        b.append("name ").append(s.name()).append('\n');
        if (!s.description().isEmpty()) {
            b.append("description ").append(oneLine(s.description())).append('\n');
        }
        b.append("pollers ").append(String.join(" ", s.pollers())).append('\n');
        s.initialStock().forEach((sku, units) -> b.append("stock ").append(sku).append(' ').append(units).append('\n'));
        int lastSeq = 0;
        for (Event e : s.events()) {
            b.append("event ").append(e.id()).append(' ').append(e.aggregate()).append(' ').append(e.quantity());
            if (e.seq() != lastSeq + 1) {
                b.append(" seq ").append(e.seq());
            }
            if (!e.payload().equals(new Event(e.id(), e.aggregate(), e.seq(), e.quantity()).payload())) {
                b.append(" payload ").append(oneLine(e.payload()));
            }
            b.append('\n');
            lastSeq = e.seq();
        }
        b.append("batch ").append(s.batch()).append('\n');
        b.append("lease ").append(s.leaseTicks()).append('\n');
        b.append("ticks ").append(s.tickBound()).append('\n');
        b.append("crashes ").append(s.maxCrashes()).append('\n');
        b.append("lost-acks ").append(s.maxLostAcks()).append('\n');
        b.append("deliver-fails ").append(s.maxDeliverFails()).append('\n');
        b.append("produce-fails ").append(s.maxProduceFails()).append('\n');
        b.append("produced-during-run ").append(s.producedDuringRun()).append('\n');
        b.append("requires");
        s.requiredWitnesses().forEach(w -> b.append(' ').append(w));
        b.append('\n');
        // the keys of renewals, skew, producers and cleanup only when set, so every scenario without them is written as it always was
        if (s.maxRenewals() > 0) {
            b.append("renewals ").append(s.maxRenewals()).append('\n');
        }
        if (s.maxSkew() > 0) {
            b.append("max-skew ").append(s.maxSkew()).append('\n');
        }
        if (s.producersOverlap()) {
            b.append("producers-overlap true\n");
        }
        if (s.instanceIds() != Scenario.InstanceIds.UNIQUE) {
            b.append("instance-ids ").append(s.instanceIds().text()).append('\n');
        }
        if (s.cleanup()) {
            b.append("cleanup true\n");
        }
        return b.toString();
    }

    private static String oneLine(String text) {
        return text.replace('\r', ' ').replace('\n', ' ').strip();
    }

    /**
     * Parses a whole scenario text. {@code defaultName} names it if it has no {@code name} line. Every
     * problem is a {@link FormatException} naming the line.
     */
    public static Scenario parse(String text, String defaultName) {
        Reader r = new Reader();
        String[] lines = text.split("\r?\n", -1);
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int sp = line.indexOf(' ');
            String key = sp < 0 ? line : line.substring(0, sp);
            if (!r.accept(n + 1, key, sp < 0 ? "" : line.substring(sp + 1))) {
                throw new FormatException(n + 1, "unknown key '" + key + "' (keys: " + String.join(", ", KEYS) + ")");
            }
        }
        int last = lines.length > 1 && lines[lines.length - 1].isEmpty() ? lines.length - 1 : lines.length;
        return r.build(defaultName, last); // what no line gives is reported at the last line
    }

    /**
     * Collects scenario lines one by one, so a text that holds more than a scenario (a replay record) can
     * hand over the lines that are the scenario's and keep its own.
     */
    public static final class Reader {
        private final Map<String, Integer> lineOf = new LinkedHashMap<>();
        private final Map<String, String> single = new LinkedHashMap<>();
        private final Map<String, Integer> stock = new LinkedHashMap<>();
        private final List<Event> events = new ArrayList<>();
        private final List<Integer> eventLines = new ArrayList<>();

        /**
         * Takes one line if {@code key} is a scenario key; returns false (taking nothing) if it is not.
         *
         * @throws FormatException if the key is a scenario key and the value is wrong
         */
        public boolean accept(int line, String key, String rawValue) {
            if (!KEYS.contains(key)) {
                return false;
            }
            String value = rawValue.strip();
            if (!REPEATABLE.contains(key) && lineOf.containsKey(key)) {
                throw new FormatException(line, "'" + key + "' given twice (first at line " + lineOf.get(key) + ")");
            }
            lineOf.putIfAbsent(key, line);
            try {
                switch (key) {
                    case "stock" -> stock(line, value);
                    case "event" -> event(line, value);
                    default -> single.put(key, value);
                }
            } catch (FormatException e) {
                throw e;
            } catch (IllegalArgumentException e) {
                throw new FormatException(line, key + ": " + e.getMessage());
            }
            return true;
        }

        private void stock(int line, String value) {
            String[] p = words(value);
            if (p.length != 2) {
                throw new FormatException(line, "stock needs 'AGGREGATE UNITS', got '" + value + "'");
            }
            if (stock.containsKey(p[0])) {
                throw new FormatException(line, "stock of " + p[0] + " given twice");
            }
            stock.put(p[0], number("stock", p[1], 0));
        }

        private void event(int line, String value) {
            String[] p = value.split(" +", 4);
            if (p.length < 3) {
                throw new FormatException(line, "event needs 'ID AGGREGATE QUANTITY [seq N] [payload TEXT]', got '" + value + "'");
            }
            int quantity = number("event quantity", p[2], 1);
            int seq = events.isEmpty() ? 1 : events.get(events.size() - 1).seq() + 1;
            String rest = p.length > 3 ? p[3] : "";
            if (rest.startsWith("seq ") || rest.equals("seq")) {
                String[] s = rest.split(" +", 3);
                if (s.length < 2) {
                    throw new FormatException(line, "event: 'seq' needs a number");
                }
                seq = number("event seq", s[1], Integer.MIN_VALUE);
                rest = s.length > 2 ? s[2] : "";
            }
            String payload = null;
            if (rest.startsWith("payload ")) {
                payload = rest.substring("payload ".length()).strip();
            } else if (!rest.isEmpty()) {
                throw new FormatException(line, "event: unexpected '" + rest + "' (after the quantity: [seq N] [payload TEXT])");
            }
            if (!events.isEmpty() && seq <= events.get(events.size() - 1).seq()) {
                throw new FormatException(line, "event " + p[0] + ": seq " + seq + " is not above the previous event's");
            }
            for (Event e : events) {
                if (e.id().equals(p[0])) {
                    throw new FormatException(line, "event id " + p[0] + " repeated");
                }
            }
            events.add(payload == null || payload.isEmpty() ? new Event(p[0], p[1], seq, quantity)
                    : new Event(p[0], p[1], seq, quantity, payload));
            eventLines.add(line);
        }

        /** The scenario the accepted lines describe; {@code endLine} is reported for what no line gives. */
        public Scenario build(String defaultName, int endLine) {
            String name = single.getOrDefault("name", defaultName);
            Scenario.Builder b = Scenario.builder(name);
            at("name", endLine, () -> Scenario.requireName(name));
            b.description(single.getOrDefault("description", ""));
            if (!single.containsKey("pollers") || single.get("pollers").isEmpty()) {
                throw new FormatException(line("pollers", endLine), "no pollers: a 'pollers NAME...' line is required");
            }
            at("pollers", endLine, () -> {
                List<String> pollers = List.of(words(single.get("pollers")));
                Set<String> seen = new HashSet<>();
                for (String p : pollers) {
                    if (p.equals(Scenario.PRODUCER) || !seen.add(p)) {
                        throw new IllegalArgumentException("poller name '" + p + "' is reserved or repeated");
                    }
                }
                b.pollers(pollers.toArray(String[]::new));
            });
            stock.forEach(b::stock);
            for (int i = 0; i < events.size(); i++) {
                if (!stock.containsKey(events.get(i).aggregate())) {
                    throw new FormatException(eventLines.get(i), "event " + events.get(i).id() + ": no 'stock "
                            + events.get(i).aggregate() + " UNITS' line");
                }
            }
            at("batch", endLine, () -> b.batch(number("batch", single.getOrDefault("batch", "1"), 1)));
            at("lease", endLine, () -> b.leaseTicks(number("lease", single.getOrDefault("lease", "2"), 1)));
            at("ticks", endLine, () -> b.tickBound(TickBound.parse(single.getOrDefault("ticks", "0"))));
            at("crashes", endLine, () -> b.maxCrashes(number("crashes", single.getOrDefault("crashes", "0"), 0)));
            at("lost-acks", endLine, () -> b.maxLostAcks(number("lost-acks", single.getOrDefault("lost-acks", "0"), 0)));
            at("deliver-fails", endLine, () -> b.maxDeliverFails(number("deliver-fails", single.getOrDefault("deliver-fails", "0"), 0)));
            at("produce-fails", endLine, () -> b.maxProduceFails(number("produce-fails", single.getOrDefault("produce-fails", "0"), 0)));
            at("produced-during-run", endLine, () -> b.producedDuringRun(bool(single.getOrDefault("produced-during-run", "false"))));
            at("requires", endLine, () -> b.requires(witnesses(single.getOrDefault("requires", ""))));
            at("renewals", endLine, () -> b.maxRenewals(number("renewals", single.getOrDefault("renewals", "0"), 0)));
            at("max-skew", endLine, () -> b.maxSkew(number("max-skew", single.getOrDefault("max-skew", "0"), 0)));
            at("producers-overlap", endLine, () -> b.producersOverlap(bool(single.getOrDefault("producers-overlap", "false"))));
            at("instance-ids", endLine, () -> b.instanceIds(Scenario.InstanceIds.parse(single.getOrDefault("instance-ids", "unique"))));
            at("cleanup", endLine, () -> b.cleanup(bool(single.getOrDefault("cleanup", "false"))));
            events.forEach(b::event);
            try {
                return b.build();
            } catch (IllegalArgumentException e) {
                throw new FormatException(endLine, e.getMessage());
            }
        }

        private int line(String key, int endLine) {
            return lineOf.getOrDefault(key, endLine);
        }

        /** Runs a check of one key's value, reporting its failure at that key's line. */
        private void at(String key, int endLine, Runnable check) {
            try {
                check.run();
            } catch (FormatException e) {
                throw e;
            } catch (IllegalArgumentException e) {
                throw new FormatException(line(key, endLine), key + ": " + e.getMessage());
            }
        }
    }

    private static String[] words(String value) {
        String v = value.strip();
        return v.isEmpty() ? new String[0] : v.split(" +");
    }

    private static int number(String what, String text, int min) {
        int n;
        try {
            n = Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a whole number");
        }
        if (n < min) {
            throw new IllegalArgumentException(what + " must be at least " + min + ", got " + n);
        }
        return n;
    }

    private static boolean bool(String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("'" + text + "' is neither true nor false");
        };
    }

    private static Witness[] witnesses(String text) {
        EnumSet<Witness> out = EnumSet.noneOf(Witness.class);
        for (String w : words(text)) {
            try {
                out.add(Witness.valueOf(w.toUpperCase(Locale.ROOT).replace('-', '_')));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown witness '" + w + "' (known: " + List.of(Witness.values()) + ")");
            }
        }
        return out.toArray(Witness[]::new);
    }
}
