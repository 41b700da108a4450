package dev.relaycheck.checker.replay;

import dev.relaycheck.checker.UsageException;
import dev.relaycheck.checker.logic.LogicFault;
import dev.relaycheck.checker.trace.Counterexample;
import dev.relaycheck.checker.trace.TraceStep;
import dev.relaycheck.model.CheckedLogic;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.ScenarioText;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.TickBound;
import dev.relaycheck.model.Witness;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * A versioned, self-contained replay record: the logic, the whole scenario (it may have been shrunk, or come
 * from a user's scenario file), the invariant, and each step with the outcome it had. Written as text under
 * results/failures/ and as a one-line token ({@code rc1:} + base64url of the deflated text; the prefix names
 * the token's encoding, the text inside carries its own version) a user can paste.
 *
 * <p>Version 2 (written now) holds the scenario in {@link ScenarioText}'s form, the form of a scenario file,
 * so a record carries a tick bound relative to the lease ({@code ticks lease+1}) and the description.
 * Version 1 records (a {@code bounds} line with an absolute tick bound) are still read.
 *
 * <pre>
 * relaycheck-replay 2
 * logic ack-ignores-token dev.relaycheck.model.variants.AckIgnoresToken
 * name stale-ack-after-expiry
 * description a stalled owner acks ...
 * pollers p1 p2
 * stock SKU-1 10
 * event E1 SKU-1 3
 * batch 1
 * lease 2
 * ticks lease+1
 * crashes 0
 * lost-acks 0
 * deliver-fails 1
 * produce-fails 0
 * produced-during-run false
 * requires STALE_ACK LEASE_RECLAIMED DELIVERY_RETRIED
 * invariant STALE_ACK_REJECTED
 * found-by bfs
 * seed none
 * step Claim(p1) => CLAIMED [E1/t1]
 * end
 * </pre>
 *
 * <p>A record of a {@link LogicFault} (the logic threw, or answered one question two ways) has
 * {@code invariant none} and a line saying what failed after its steps, e.g.
 * {@code fault LOGIC-ERROR acceptsAck TAKING_STEP Ack(p1,E1,t1)} (or {@code LISTING_STEPS}, {@code HEALING},
 * {@code RECHECKING} without a step); its {@link #invariant} is null and {@link #fault} present.
 */
public record ReplayRecord(String logicId, String logicClass, Scenario scenario, Invariant invariant, String foundBy,
                           OptionalLong seed, List<Step> steps, List<String> outcomes, Optional<Fault> fault) {

    /** What a logic-fault record expects after its steps: the verdict, the method, and what the search was doing. */
    public record Fault(String verdict, String method, LogicFault.Doing doing, Optional<Step> step) {
        String toText() {
            return verdict + " " + method + " " + doing + step.map(x -> " " + x).orElse("");
        }

        static Fault parse(String text) {
            String[] p = text.trim().split(" ", 4);
            if (p.length < 3 || !(p[0].equals("LOGIC-ERROR") || p[0].equals("NON-DETERMINISM"))) {
                throw new UsageException("malformed replay record: a fault line reads 'fault LOGIC-ERROR|NON-DETERMINISM "
                        + "METHOD LISTING_STEPS|TAKING_STEP STEP|HEALING|RECHECKING'");
            }
            LogicFault.Doing doing = LogicFault.Doing.valueOf(p[2]);
            Optional<Step> step = p.length > 3 ? Optional.of(Step.parse(p[3])) : Optional.empty();
            if (step.isPresent() != (doing == LogicFault.Doing.TAKING_STEP)) {
                throw new UsageException("malformed replay record: a fault line names a step exactly when it is TAKING_STEP");
            }
            return new Fault(p[0], p[1], doing, step);
        }
    }

    public static final int VERSION = 2;
    /** The first version, whose records (bounds on one line, ticks absolute) are still read. */
    static final int VERSION_1 = 1;
    private static final String HEADER = "relaycheck-replay ";
    private static final String TOKEN_PREFIX = "rc1:";

    public ReplayRecord {
        steps = List.copyOf(steps);
        outcomes = List.copyOf(outcomes);
        if ((invariant == null) == fault.isEmpty()) {
            throw new IllegalArgumentException("a replay record names either an invariant or a logic fault");
        }
    }

    /** A record of a violation. */
    public ReplayRecord(String logicId, String logicClass, Scenario scenario, Invariant invariant, String foundBy,
                        OptionalLong seed, List<Step> steps, List<String> outcomes) {
        this(logicId, logicClass, scenario, invariant, foundBy, seed, steps, outcomes, Optional.empty());
    }

    public static ReplayRecord of(Counterexample cx) {
        List<String> outcomes = new ArrayList<>();
        for (int i = 0; i < cx.path().size(); i++) {
            outcomes.add(cx.trace().get(i).outcome().toString());
        }
        return new ReplayRecord(cx.logic().id(), CheckedLogic.unwrap(cx.logic()).getClass().getName(), cx.scenario(),
                cx.invariant(), cx.foundBy(), cx.seed(), cx.path(), outcomes);
    }

    /** A record of a logic fault: the steps that ran before it, and what failed after them. */
    public static ReplayRecord of(LogicFault f) {
        List<String> outcomes = new ArrayList<>();
        for (TraceStep t : f.trace()) {
            outcomes.add(t.outcome().toString());
        }
        return new ReplayRecord(f.logic().id(), CheckedLogic.unwrap(f.logic()).getClass().getName(), f.scenario(), null,
                f.foundBy(), f.seed(), f.path(), outcomes,
                Optional.of(new Fault(f.failure().verdict(), f.failure().method(), f.doing(), f.step())));
    }

    public String toText() {
        StringBuilder b = new StringBuilder();
        b.append(HEADER).append(VERSION).append('\n');
        b.append("logic ").append(logicId).append(' ').append(logicClass).append('\n');
        b.append(ScenarioText.write(scenario));
        b.append("invariant ").append(invariant == null ? "none" : invariant).append('\n');
        fault.ifPresent(f -> b.append("fault ").append(f.toText()).append('\n'));
        b.append("found-by ").append(foundBy.replace('\n', ' ')).append('\n');
        b.append("seed ").append(seed.isPresent() ? Long.toString(seed.getAsLong()) : "none").append('\n');
        for (int i = 0; i < steps.size(); i++) {
            b.append("step ").append(steps.get(i)).append(" => ").append(outcomes.get(i)).append('\n');
        }
        b.append("end\n");
        return b.toString();
    }

    public String toToken() {
        byte[] text = toText().getBytes(StandardCharsets.UTF_8);
        Deflater d = new Deflater(Deflater.BEST_COMPRESSION);
        d.setInput(text);
        d.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        while (!d.finished()) {
            out.write(buf, 0, d.deflate(buf));
        }
        d.end();
        return TOKEN_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(out.toByteArray());
    }

    public static boolean looksLikeToken(String s) {
        return s.startsWith("rc") && s.indexOf(':') > 0 && s.indexOf(':') < 6;
    }

    public static ReplayRecord fromToken(String token) {
        if (!token.startsWith(TOKEN_PREFIX)) {
            throw new UsageException("replay token format '" + token.substring(0, token.indexOf(':') + 1)
                    + "' is not supported (this relaycheck reads " + TOKEN_PREFIX + ")");
        }
        byte[] packed;
        try {
            packed = Base64.getUrlDecoder().decode(token.substring(TOKEN_PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new UsageException("malformed replay token: not base64url");
        }
        Inflater inf = new Inflater();
        inf.setInput(packed);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        try {
            while (!inf.finished()) {
                int n = inf.inflate(buf);
                if (n == 0 && (inf.needsInput() || inf.needsDictionary())) {
                    throw new UsageException("malformed replay token: truncated");
                }
                out.write(buf, 0, n);
                if (out.size() > 10_000_000) {
                    throw new UsageException("malformed replay token: too large");
                }
            }
        } catch (DataFormatException e) {
            throw new UsageException("malformed replay token: not a deflated record");
        } finally {
            inf.end();
        }
        return parse(out.toString(StandardCharsets.UTF_8));
    }

    /** Parses the text form (version 2, or version 1); every problem is a one-line {@link UsageException}. */
    public static ReplayRecord parse(String text) {
        String[] lines = text.split("\n", -1);
        if (lines.length == 0 || !lines[0].startsWith(HEADER)) {
            throw new UsageException("malformed replay record: the first line must be '" + HEADER + VERSION + "'");
        }
        String version = lines[0].substring(HEADER.length()).trim();
        boolean v1 = version.equals(Integer.toString(VERSION_1));
        if (!v1 && !version.equals(Integer.toString(VERSION))) {
            throw new UsageException("replay record version " + version + " is not supported (this relaycheck reads versions "
                    + VERSION_1 + " and " + VERSION + ")");
        }
        Map<String, String> single = new LinkedHashMap<>();
        ScenarioText.Reader scenarioLines = new ScenarioText.Reader();
        Version1Scenario v1Scenario = new Version1Scenario();
        List<Step> steps = new ArrayList<>();
        List<String> outcomes = new ArrayList<>();
        boolean ended = false;
        for (int n = 1; n < lines.length; n++) {
            String line = lines[n];
            if (line.isBlank()) {
                continue;
            }
            if (ended) {
                throw bad(n, "text after 'end'");
            }
            int sp = line.indexOf(' ');
            String key = sp < 0 ? line : line.substring(0, sp);
            String rest = sp < 0 ? "" : line.substring(sp + 1);
            try {
                switch (key) {
                    case "end" -> ended = true;
                    case "step" -> {
                        int arrow = rest.indexOf(" => ");
                        if (arrow < 0) {
                            throw bad(n, "a step line needs '=> outcome'");
                        }
                        steps.add(Step.parse(rest.substring(0, arrow)));
                        outcomes.add(rest.substring(arrow + 4));
                    }
                    case "logic", "invariant", "found-by", "seed", "fault" -> once(single, n, key, rest);
                    default -> {
                        boolean taken = v1 ? v1Scenario.accept(n, key, rest) : scenarioLines.accept(n + 1, key, rest);
                        if (!taken) {
                            throw bad(n, "unknown field '" + key + "'");
                        }
                    }
                }
            } catch (UsageException e) {
                throw e;
            } catch (RuntimeException e) {
                throw bad(n, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
            }
        }
        if (!ended) {
            throw new UsageException("malformed replay record: no 'end' line (truncated?)");
        }
        for (String required : List.of("logic", "invariant", "found-by", "seed")) {
            if (!single.containsKey(required)) {
                throw new UsageException("malformed replay record: missing '" + required + "' line");
            }
        }
        try {
            String[] logic = single.get("logic").split(" ");
            Scenario scenario = v1 ? v1Scenario.build() : scenarioLines.build("replayed", lines.length);
            Optional<Fault> fault = Optional.ofNullable(single.get("fault")).map(Fault::parse);
            String invariantText = single.get("invariant").trim();
            if (invariantText.equals("none") != fault.isPresent()) {
                throw new UsageException("malformed replay record: 'invariant none' goes with a 'fault' line, and only with one");
            }
            Invariant invariant = fault.isPresent() ? null : Invariant.valueOf(invariantText);
            String seedText = single.get("seed").trim();
            OptionalLong seed = seedText.equals("none") ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(seedText));
            return new ReplayRecord(logic[0], logic.length > 1 ? logic[1] : "", scenario, invariant,
                    single.get("found-by"), seed, steps, outcomes, fault);
        } catch (UsageException e) {
            throw e;
        } catch (ScenarioText.FormatException e) {
            throw bad(e.line() - 1, e.getMessage());
        } catch (RuntimeException e) {
            throw new UsageException("malformed replay record: " + e.getMessage());
        }
    }

    private static void once(Map<String, String> single, int n, String key, String value) {
        if (single.put(key, value) != null) {
            throw bad(n, "'" + key + "' given twice");
        }
    }

    /** The scenario lines of a version 1 record: one {@code bounds} line, ticks absolute. */
    private static final class Version1Scenario {
        private final Map<String, String> single = new LinkedHashMap<>();
        private final Map<String, Integer> stock = new LinkedHashMap<>();
        private final List<Event> events = new ArrayList<>();

        boolean accept(int n, String key, String rest) {
            switch (key) {
                case "stock" -> {
                    String[] p = rest.split(" ");
                    stock.put(p[0], Integer.parseInt(p[1]));
                }
                case "event" -> {
                    String[] p = rest.split(" ", 5);
                    events.add(new Event(p[0], p[1], Integer.parseInt(p[2]), Integer.parseInt(p[3]), p[4]));
                }
                case "scenario", "pollers", "bounds", "witnesses" -> once(single, n, key, rest);
                default -> {
                    return false;
                }
            }
            return true;
        }

        Scenario build() {
            for (String required : List.of("scenario", "pollers", "bounds", "witnesses")) {
                if (!single.containsKey(required)) {
                    throw new UsageException("malformed replay record: missing '" + required + "' line");
                }
            }
            Map<String, String> bounds = new LinkedHashMap<>();
            for (String kv : single.get("bounds").trim().split(" ")) {
                String[] p = kv.split("=", 2);
                if (p.length != 2) {
                    throw new UsageException("malformed replay record: bad bound '" + kv + "'");
                }
                bounds.put(p[0], p[1]);
            }
            Set<Witness> witnesses = EnumSet.noneOf(Witness.class);
            for (String w : single.get("witnesses").trim().split(" ")) {
                if (!w.isEmpty()) {
                    witnesses.add(Witness.valueOf(w));
                }
            }
            return new Scenario(single.get("scenario").trim(), "from a replay record",
                    List.of(single.get("pollers").trim().split(" ")), events, new java.util.TreeMap<>(stock),
                    num(bounds, "batch"), num(bounds, "lease"), TickBound.at(num(bounds, "ticks")), num(bounds, "crashes"),
                    num(bounds, "lostacks"), num(bounds, "deliverfails"), num(bounds, "producefails"),
                    Boolean.parseBoolean(require(bounds, "produced")), witnesses);
        }
    }

    private static int num(Map<String, String> bounds, String key) {
        return Integer.parseInt(require(bounds, key));
    }

    private static String require(Map<String, String> bounds, String key) {
        String v = bounds.get(key);
        if (v == null) {
            throw new UsageException("malformed replay record: bounds line lacks " + key + "=");
        }
        return v;
    }

    private static UsageException bad(int line, String why) {
        return new UsageException("malformed replay record: line " + (line + 1) + ": " + why);
    }
}
