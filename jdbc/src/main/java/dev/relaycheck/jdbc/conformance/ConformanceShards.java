package dev.relaycheck.jdbc.conformance;

import dev.relaycheck.model.Witness;
import dev.relaycheck.model.shard.Shard;
import dev.relaycheck.model.shard.ShardFile;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * How this process takes part in a SQL conformance check: the whole of it; one shard of it (the schedules at the
 * shard's positions of each variant's run, each tallied into a row); or the merge of every shard's rows, which runs
 * no schedule but those whose full result the report shows (the first failure, the first unpromised violation).
 * Each variant's run is named by its place in the check's sequence of runs, so the same command gives the same
 * names in every shard.
 */
public final class ConformanceShards {
    private static final String SCHEDULE = "schedule";
    private static final String TIME = "time";

    private final Shard shard;
    private final Map<String, Map<Integer, Tally>> merged;
    private final Map<String, Long> mergedMillis = new HashMap<>();
    private final List<List<String>> rows = new ArrayList<>();
    private int runs;

    /** What one schedule did, as a merged count needs it. */
    record Tally(int position, String scenario, int steps, boolean clean, boolean violation, boolean unpromised,
                 Set<Witness> witnesses, SortedMap<String, Integer> outcomeKinds, String shard) {
        static Tally of(int position, ScheduleResult r) {
            return new Tally(position, r.scenario(), r.steps(), r.clean(), r.violation() != null, r.unpromised() != null,
                    r.witnesses(), r.outcomeKinds(), null);
        }
    }

    private ConformanceShards(Shard shard, Map<String, Map<Integer, Tally>> merged) {
        this.shard = shard;
        this.merged = merged;
    }

    /** The whole check in this process. */
    public static ConformanceShards whole() {
        return new ConformanceShards(Shard.WHOLE, null);
    }

    /** Shard {@code shard} of the check in this process: {@link #rows()} holds what its schedules did. */
    public static ConformanceShards shard(Shard shard) {
        return new ConformanceShards(shard, null);
    }

    /** The merge of every shard's rows (an IllegalArgumentException in one line for a row it cannot read). */
    public static ConformanceShards merge(List<ShardFile> files) {
        Map<String, Map<Integer, Tally>> merged = new HashMap<>();
        ConformanceShards m = new ConformanceShards(Shard.WHOLE, merged);
        for (ShardFile f : files) {
            try {
                for (List<String> r : f.rows(SCHEDULE)) {
                    int position = Integer.parseInt(r.get(1));
                    if (!f.shard().owns(position)) {
                        throw new IllegalArgumentException("it holds schedule #" + position + " of " + r.get(0) + ", not one of its own");
                    }
                    Set<Witness> witnesses = EnumSet.noneOf(Witness.class);
                    for (String w : r.get(6).isEmpty() ? new String[0] : r.get(6).split(",")) {
                        witnesses.add(Witness.valueOf(w));
                    }
                    SortedMap<String, Integer> kinds = new TreeMap<>();
                    for (String kv : r.get(7).isEmpty() ? new String[0] : r.get(7).split(",")) {
                        kinds.put(kv.substring(0, kv.indexOf('=')), Integer.parseInt(kv.substring(kv.indexOf('=') + 1)));
                    }
                    merged.computeIfAbsent(r.get(0), k -> new HashMap<>()).put(position, new Tally(position, r.get(2),
                            Integer.parseInt(r.get(3)), r.get(4).equals("clean"), r.get(4).equals("violation"), r.get(5).equals("unpromised"),
                            witnesses, kinds, f.shard().toString()));
                }
                for (List<String> r : f.rows(TIME)) {
                    m.mergedMillis.merge(r.get(0), Long.parseLong(r.get(1)), Long::sum);
                }
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("shard " + f.shard() + ": a conformance row cannot be read (" + e.getMessage() + ")");
            }
        }
        return m;
    }

    /** The rows a shard writes: one per schedule it ran, and each run's time. */
    public List<List<String>> rows() {
        return List.copyOf(rows);
    }

    public Shard shard() {
        return shard;
    }

    boolean merging() {
        return merged != null;
    }

    /** The name of the check's next variant run: its place in the sequence, and the relay it runs. */
    String nextRun(String relayId) {
        return (runs++) + ":" + relayId;
    }

    /** Whether this process runs the schedule at {@code position} of a variant's run. */
    boolean runs(int position) {
        return !merging() && shard.owns(position);
    }

    /** What the shards recorded at {@code position} of {@code run}; an IllegalStateException when none did. */
    Tally recorded(String run, int position) {
        Tally t = merged.getOrDefault(run, Map.of()).get(position);
        if (t == null) {
            throw new IllegalStateException("no shard recorded schedule #" + position + " of run " + run
                    + ", though none before it broke an invariant: the shards are not of one run");
        }
        return t;
    }

    void record(String run, Tally t) {
        List<String> seen = t.witnesses().stream().map(Witness::name).toList();
        List<String> kinds = t.outcomeKinds().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
        rows.add(List.of(SCHEDULE, run, Integer.toString(t.position()), t.scenario(), Integer.toString(t.steps()),
                t.clean() ? "clean" : t.violation() ? "violation" : "diverged", t.unpromised() ? "unpromised" : "-",
                String.join(",", seen), String.join(",", kinds)));
    }

    void recordTime(String run, long millis) {
        rows.add(List.of(TIME, run, Long.toString(millis)));
    }

    long mergedMillis(String run) {
        return mergedMillis.getOrDefault(run, 0L);
    }
}
