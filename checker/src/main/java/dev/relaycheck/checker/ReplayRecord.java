package dev.relaycheck.checker;

import dev.relaycheck.model.CheckedLogic;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Step;
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
 * A versioned, self-contained replay record: the logic, the whole scenario (it may have been shrunk), the
 * invariant, and each step with the outcome it had. Written as text under results/failures/ and as a
 * one-line token ({@code rc1:} + base64url of the deflated text) a user can paste.
 *
 * <pre>
 * relaycheck-replay 1
 * logic ack-ignores-token dev.relaycheck.model.variants.AckIgnoresToken
 * scenario stale-ack-after-expiry
 * pollers p1 p2
 * stock SKU-1 10
 * event E1 SKU-1 1 3 take 3 of SKU-1
 * bounds batch=1 lease=2 ticks=3 crashes=0 lostacks=0 deliverfails=1 producefails=0 produced=false
 * witnesses STALE_ACK LEASE_RECLAIMED
 * invariant STALE_ACK_REJECTED
 * found-by bfs
 * seed none
 * step Claim(p1) => CLAIMED [E1/t1]
 * end
 * </pre>
 *
 * <p>A record of a {@link LogicFault} (the logic threw, or answered one question two ways) has
 * {@code invariant none} and a line saying what failed after its steps, e.g.
 * {@code fault LOGIC-ERROR acceptsAck TAKING_STEP Ack(p1,E1,t1)} (or {@code LISTING_STEPS}, {@code HEALING}
 * without a step); its {@link #invariant} is null and {@link #fault} present.
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
                        + "METHOD LISTING_STEPS|TAKING_STEP STEP|HEALING'");
            }
            LogicFault.Doing doing = LogicFault.Doing.valueOf(p[2]);
            Optional<Step> step = p.length > 3 ? Optional.of(Step.parse(p[3])) : Optional.empty();
            if (step.isPresent() != (doing == LogicFault.Doing.TAKING_STEP)) {
                throw new UsageException("malformed replay record: a fault line names a step exactly when it is TAKING_STEP");
            }
            return new Fault(p[0], p[1], doing, step);
        }
    }

    public static final int VERSION = 1;
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
        Scenario s = scenario;
        StringBuilder b = new StringBuilder();
        b.append(HEADER).append(VERSION).append('\n');
        b.append("logic ").append(logicId).append(' ').append(logicClass).append('\n');
        b.append("scenario ").append(s.name()).append('\n');
        b.append("pollers ").append(String.join(" ", s.pollers())).append('\n');
        s.initialStock().forEach((sku, units) -> b.append("stock ").append(sku).append(' ').append(units).append('\n'));
        for (Event e : s.events()) {
            b.append("event ").append(e.id()).append(' ').append(e.aggregate()).append(' ').append(e.seq()).append(' ')
                    .append(e.quantity()).append(' ').append(e.payload()).append('\n');
        }
        b.append(String.format("bounds batch=%d lease=%d ticks=%d crashes=%d lostacks=%d deliverfails=%d producefails=%d produced=%b%n",
                s.batch(), s.leaseTicks(), s.maxTicks(), s.maxCrashes(), s.maxLostAcks(), s.maxDeliverFails(),
                s.maxProduceFails(), s.producedDuringRun()));
        b.append("witnesses");
        s.requiredWitnesses().forEach(w -> b.append(' ').append(w));
        b.append('\n');
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

    /** Parses the text form; every problem is a one-line {@link UsageException}. */
    public static ReplayRecord parse(String text) {
        String[] lines = text.split("\n", -1);
        if (lines.length == 0 || !lines[0].startsWith(HEADER)) {
            throw new UsageException("malformed replay record: the first line must be '" + HEADER + VERSION + "'");
        }
        String version = lines[0].substring(HEADER.length()).trim();
        if (!version.equals(Integer.toString(VERSION))) {
            throw new UsageException("replay record version " + version + " is not supported (this relaycheck reads version "
                    + VERSION + ")");
        }
        Map<String, String> single = new LinkedHashMap<>();
        Map<String, Integer> stock = new LinkedHashMap<>();
        List<Event> events = new ArrayList<>();
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
                    case "stock" -> {
                        String[] p = rest.split(" ");
                        stock.put(p[0], Integer.parseInt(p[1]));
                    }
                    case "event" -> {
                        String[] p = rest.split(" ", 5);
                        events.add(new Event(p[0], p[1], Integer.parseInt(p[2]), Integer.parseInt(p[3]), p[4]));
                    }
                    case "step" -> {
                        int arrow = rest.indexOf(" => ");
                        if (arrow < 0) {
                            throw bad(n, "a step line needs '=> outcome'");
                        }
                        steps.add(Step.parse(rest.substring(0, arrow)));
                        outcomes.add(rest.substring(arrow + 4));
                    }
                    case "logic", "scenario", "pollers", "bounds", "witnesses", "invariant", "found-by", "seed", "fault" -> {
                        if (single.put(key, rest) != null) {
                            throw bad(n, "'" + key + "' given twice");
                        }
                    }
                    default -> throw bad(n, "unknown field '" + key + "'");
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
        for (String required : List.of("logic", "scenario", "pollers", "bounds", "witnesses", "invariant", "found-by", "seed")) {
            if (!single.containsKey(required)) {
                throw new UsageException("malformed replay record: missing '" + required + "' line");
            }
        }
        try {
            String[] logic = single.get("logic").split(" ");
            Scenario scenario = scenario(single, stock, events);
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
        } catch (RuntimeException e) {
            throw new UsageException("malformed replay record: " + e.getMessage());
        }
    }

    private static Scenario scenario(Map<String, String> single, Map<String, Integer> stock, List<Event> events) {
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
                num(bounds, "batch"), num(bounds, "lease"), num(bounds, "ticks"), num(bounds, "crashes"),
                num(bounds, "lostacks"), num(bounds, "deliverfails"), num(bounds, "producefails"),
                Boolean.parseBoolean(require(bounds, "produced")), witnesses);
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
