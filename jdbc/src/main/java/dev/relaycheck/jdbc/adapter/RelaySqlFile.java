package dev.relaycheck.jdbc.adapter;

import dev.relaycheck.jdbc.db.Dialect;
import dev.relaycheck.model.Invariant;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A relay written as a file of named SQL statements, the no-Java form of a {@link RelayAdapter}. Each
 * statement starts with a line {@code -- name: NAME}; {@code -- name: NAME [postgres]} (or {@code [h2]})
 * is that database's own version. {@code -- option: NAME} lines declare what an adapter declares with its optional
 * methods: {@code claim-in-two-transactions} (the claim reads in one transaction and leases in a later one),
 * {@code fenced-by-owner} (no token column: ack and release match by the row's owner, relaycheck issues the tokens),
 * {@code fenced-by-row-version} (the row's version column is its fencing token) and
 * {@code does-not-promise-INVARIANT} ({@code does-not-promise-aggregate-order}: checked, reported, never a failure).
 * The relays fenced by owner or by version have no {@code claim-token}, {@code claim-token-write} or
 * {@code snapshot-token}. Statements use named parameters ({@code :now}, {@code :token}, ...);
 * which ones each statement gets is fixed ({@link #PARAMETERS}). {@code schema}, {@code clear} and {@code cleanup} may hold
 * several statements separated by {@code ;} at the end of a line.
 *
 * @param statements the statement texts by name, then by dialect ("" for the portable version)
 * @param options    the options set
 */
public record RelaySqlFile(Map<String, Map<String, String>> statements, Set<String> options) {

    /** The reference relay's file (what {@code relaycheck sql template} prints). */
    public static final String REFERENCE_RESOURCE = "/dev/relaycheck/jdbc/relay-reference.sql";
    public static final String TWO_TRANSACTION_CLAIM = "claim-in-two-transactions";
    public static final String FENCED_BY_OWNER = "fenced-by-owner";
    public static final String FENCED_BY_ROW_VERSION = "fenced-by-row-version";
    /** How an option that names an invariant the relay does not promise starts: {@code does-not-promise-aggregate-order}. */
    public static final String DOES_NOT_PROMISE = "does-not-promise-";
    private static final Set<String> OPTIONS = knownOptions();

    private static Set<String> knownOptions() {
        Set<String> o = new TreeSet<>(List.of(TWO_TRANSACTION_CLAIM, FENCED_BY_OWNER, FENCED_BY_ROW_VERSION));
        for (Invariant i : Invariant.values()) {
            o.add(DOES_NOT_PROMISE + optionName(i));
        }
        return java.util.Collections.unmodifiableSet(o);
    }

    /** {@code aggregate-order} for AGGREGATE_ORDER. */
    public static String optionName(Invariant i) {
        return i.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    /** The statements that read or move a token counter: a relay fenced by owner or by version has none. */
    static final List<String> TOKEN_COUNTER = List.of("claim-token", "claim-token-write", "snapshot-token");

    /** Every statement a relay file has, with the parameters it is given (in a fixed order). */
    public static final Map<String, List<String>> PARAMETERS = parameters();

    private static Map<String, List<String>> parameters() {
        Map<String, List<String>> p = new TreeMap<>();
        p.put("schema", List.of());
        p.put("clear", List.of());
        p.put("produce", List.of("event", "aggregate", "seq", "quantity", "payload"));
        p.put("claim-select", List.of("now", "batch", "poller", "lease_ticks", "cursor", "app_now"));
        p.put("claim-token", List.of("now", "poller"));
        p.put("claim-lease", List.of("event", "poller", "token", "expiry", "now", "lease_ticks", "app_now"));
        p.put("claim-granted", List.of("event", "poller", "now"));
        p.put("claim-token-write", List.of("token", "now", "poller"));
        p.put("ack", List.of("event", "token", "now", "poller"));
        p.put("release", List.of("event", "token", "now", "poller"));
        p.put("renew", List.of("event", "token", "now", "poller", "expiry", "lease_ticks"));
        p.put("cleanup", List.of("now"));
        p.put("snapshot", List.of());
        p.put("snapshot-token", List.of());
        return p;
    }

    /**
     * Statements a relay file may leave out: a relay without lease renewal has no {@code renew}, one that never deletes
     * its rows no {@code cleanup}.
     */
    public static final List<String> OPTIONAL = List.of("renew", "cleanup");

    /** The statements this file must have: every one but {@link #OPTIONAL}, and no token counter when it has none. */
    private List<String> required() {
        return PARAMETERS.keySet().stream().filter(n -> !OPTIONAL.contains(n) && (countsTokens() || !TOKEN_COUNTER.contains(n))).toList();
    }

    private static final Pattern NAME = Pattern.compile("^--\\s*name:\\s*([a-z][a-z0-9-]*)\\s*(?:\\[([a-z0-9]+)])?\\s*$");
    private static final Pattern OPTION = Pattern.compile("^--\\s*option:\\s*([a-z][a-z0-9-]*)\\s*$");
    public RelaySqlFile {
        Map<String, Map<String, String>> copy = new TreeMap<>();
        statements.forEach((k, v) -> copy.put(k, java.util.Collections.unmodifiableMap(new TreeMap<>(v))));
        statements = java.util.Collections.unmodifiableMap(copy);
        options = java.util.Collections.unmodifiableSet(new TreeSet<>(options));
    }

    /** The shipped reference relay. */
    public static RelaySqlFile reference() {
        return parse(referenceText(), "the reference relay file");
    }

    public static String referenceText() {
        try (InputStream in = RelaySqlFile.class.getResourceAsStream(REFERENCE_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + REFERENCE_RESOURCE);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads and checks a relay file; a bad file is an IllegalArgumentException with one line saying what is wrong. */
    public static RelaySqlFile read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read relay file " + file + ": " + e.getMessage());
        }
        return parse(text, file.toString());
    }

    public static RelaySqlFile parse(String text, String where) {
        Map<String, Map<String, String>> statements = new TreeMap<>();
        Set<String> options = new TreeSet<>();
        String name = null;
        String dialect = null;
        StringBuilder body = new StringBuilder();
        int lineNo = 0;
        for (String line : text.split("\n", -1)) {
            lineNo++;
            String t = line.strip();
            Matcher m = NAME.matcher(t);
            Matcher o = OPTION.matcher(t);
            if (m.matches()) {
                put(statements, name, dialect, body, where);
                name = m.group(1);
                dialect = m.group(2) == null ? "" : m.group(2);
                if (!PARAMETERS.containsKey(name)) {
                    throw new IllegalArgumentException(where + " line " + lineNo + ": unknown statement '" + name + "' (a relay file has "
                            + String.join(", ", PARAMETERS.keySet()) + ")");
                }
                if (!dialect.isEmpty() && Dialect.byId(dialect).isEmpty()) {
                    throw new IllegalArgumentException(where + " line " + lineNo + ": unknown database [" + dialect + "] (h2 or postgres)");
                }
                body = new StringBuilder();
            } else if (o.matches()) {
                if (!OPTIONS.contains(o.group(1))) {
                    throw new IllegalArgumentException(where + " line " + lineNo + ": unknown option '" + o.group(1) + "' (known: "
                            + String.join(", ", TWO_TRANSACTION_CLAIM, FENCED_BY_OWNER, FENCED_BY_ROW_VERSION) + ", " + DOES_NOT_PROMISE
                            + "INVARIANT for " + String.join(", ", java.util.Arrays.stream(Invariant.values()).map(RelaySqlFile::optionName).toList())
                            + ")");
                }
                options.add(o.group(1));
            } else if (name != null) {
                body.append(line).append('\n');
            } else if (!t.isEmpty() && !t.startsWith("--")) {
                throw new IllegalArgumentException(where + " line " + lineNo + ": SQL before the first '-- name:' line");
            }
        }
        put(statements, name, dialect, body, where);
        RelaySqlFile f = new RelaySqlFile(statements, options);
        f.validate(where);
        return f;
    }

    private static void put(Map<String, Map<String, String>> statements, String name, String dialect, StringBuilder body, String where) {
        if (name == null) {
            return;
        }
        Map<String, String> versions = statements.computeIfAbsent(name, k -> new TreeMap<>());
        if (versions.containsKey(dialect)) {
            throw new IllegalArgumentException(where + ": statement '" + name + (dialect.isEmpty() ? "" : " [" + dialect + "]")
                    + "' appears twice");
        }
        versions.put(dialect, body.toString().strip());
    }

    private void validate(String where) {
        if (fencedByOwner() && fencedByRowVersion()) {
            throw new IllegalArgumentException(where + ": options " + FENCED_BY_OWNER + " and " + FENCED_BY_ROW_VERSION
                    + " exclude each other");
        }
        if (!countsTokens()) {
            String option = fencedByOwner() ? FENCED_BY_OWNER : FENCED_BY_ROW_VERSION;
            for (String counter : TOKEN_COUNTER) {
                if (statements.containsKey(counter)) {
                    throw new IllegalArgumentException(where + ": statement '" + counter + "' reads or moves a token counter, and a "
                            + "relay " + option + " has none (relaycheck " + (fencedByOwner() ? "issues its tokens" : "reads the row's version")
                            + "): leave out " + String.join(", ", TOKEN_COUNTER));
                }
            }
        }
        if (fencedByOwner()) {
            for (String name : List.of("claim-lease", "ack", "release", "renew")) {
                if (uses(name, "token")) {
                    throw new IllegalArgumentException(where + ": statement '" + name + "' uses :token, and a relay " + FENCED_BY_OWNER
                            + " has no token: match the row's owner with :poller");
                }
            }
        }
        if (fencedByRowVersion() && uses("claim-lease", "token")) {
            throw new IllegalArgumentException(where + ": statement 'claim-lease' uses :token, and a relay " + FENCED_BY_ROW_VERSION
                    + " writes version + 1 itself (claim-granted returns it as lease_token)");
        }
        for (String required : required()) {
            Map<String, String> v = statements.get(required);
            if (v == null || !v.containsKey("")) {
                boolean allDialects = v != null && v.keySet().containsAll(List.of(Dialect.H2.id(), Dialect.POSTGRES.id()));
                if (!allDialects) {
                    throw new IllegalArgumentException(where + ": statement '" + required + "' is missing (this relay file has "
                            + String.join(", ", required()) + ", and optionally " + String.join(", ", OPTIONAL) + ")");
                }
            }
        }
        statements.forEach((name, versions) -> versions.forEach((dialect, text) -> {
            String label = name + (dialect.isEmpty() ? "" : " [" + dialect + "]");
            if (text.isBlank()) {
                throw new IllegalArgumentException(where + ": statement '" + label + "' is empty");
            }
            for (String part : split(text)) {
                NamedSql sql = NamedSql.parse(part);
                java.util.Optional<String> clock = WallClock.readBy(part);
                if (clock.isPresent()) {
                    throw new IllegalArgumentException(WallClock.refusal(where + ": statement '" + label + "'", clock.get()));
                }
                for (String p : sql.parameters()) {
                    if (!PARAMETERS.get(name).contains(p)) {
                        throw new IllegalArgumentException(where + ": statement '" + label + "' uses :" + p + ", which it is not given"
                                + (PARAMETERS.get(name).isEmpty() ? " (it gets no parameters)" : " (it gets :"
                                + String.join(" :", PARAMETERS.get(name)) + ")"));
                    }
                }
            }
        }));
    }

    /** The statement's parts (several for schema and clear), for {@code dialect}: its own version if it has one. */
    public List<NamedSql> statement(String name, Dialect dialect) {
        Map<String, String> versions = statements.get(name);
        String text = versions.getOrDefault(dialect.id(), versions.get(""));
        if (text == null) {
            throw new IllegalStateException("statement '" + name + "' has no version for " + dialect.id());
        }
        return split(text).stream().map(NamedSql::parse).toList();
    }

    /** Whether any version of statement {@code name} uses the named parameter {@code parameter}. */
    public boolean uses(String name, String parameter) {
        return statements.getOrDefault(name, Map.of()).values().stream()
                .anyMatch(text -> split(text).stream().anyMatch(part -> NamedSql.parse(part).parameters().contains(parameter)));
    }

    /** Whether the file has statement {@code name} (an optional one may be absent). */
    public boolean has(String name) {
        return statements.containsKey(name);
    }

    public boolean claimsInTwoTransactions() {
        return options.contains(TWO_TRANSACTION_CLAIM);
    }

    public boolean fencedByOwner() {
        return options.contains(FENCED_BY_OWNER);
    }

    public boolean fencedByRowVersion() {
        return options.contains(FENCED_BY_ROW_VERSION);
    }

    /** Whether the relay keeps a token counter of its own (neither fenced by owner nor by row version). */
    public boolean countsTokens() {
        return !fencedByOwner() && !fencedByRowVersion();
    }

    /** The invariants it promises: all but those a {@code does-not-promise-...} option names. */
    public Set<Invariant> promisedInvariants() {
        Set<Invariant> p = java.util.EnumSet.allOf(Invariant.class);
        p.removeIf(i -> options.contains(DOES_NOT_PROMISE + optionName(i)));
        return p;
    }

    /** Statements end with {@code ;} at the end of a line; the last may omit it. */
    static List<String> split(String text) {
        List<String> parts = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (String line : text.split("\n")) {
            cur.append(line).append('\n');
            if (line.strip().endsWith(";")) {
                String s = cur.toString().strip();
                parts.add(s.substring(0, s.length() - 1));
                cur = new StringBuilder();
            }
        }
        if (!cur.toString().isBlank()) {
            parts.add(cur.toString().strip());
        }
        parts.removeIf(p -> NamedSql.parse(p).jdbc().isBlank());
        return parts;
    }

    /**
     * A copy with {@code from} replaced by {@code to} in every version of statement {@code name}: how a
     * broken variant is written, as a small edit of the reference. Fails when {@code from} is in none of them,
     * so an edit cannot silently stop applying when the reference changes.
     */
    public RelaySqlFile edit(String name, String from, String to) {
        Map<String, Map<String, String>> copy = new TreeMap<>();
        statements.forEach((k, v) -> copy.put(k, new TreeMap<>(v)));
        Map<String, String> versions = copy.get(name);
        boolean applied = false;
        for (Map.Entry<String, String> e : versions.entrySet()) {
            if (e.getValue().contains(from)) {
                e.setValue(e.getValue().replace(from, to));
                applied = true;
            }
        }
        if (!applied) {
            throw new IllegalStateException("edit of '" + name + "': '" + from + "' is not in it");
        }
        return new RelaySqlFile(copy, options);
    }

    /** A copy with an option set. */
    public RelaySqlFile withOption(String option) {
        Set<String> o = new TreeSet<>(options);
        o.add(option);
        return new RelaySqlFile(statements, o);
    }
}
