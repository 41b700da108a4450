package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.UsageException;
import dev.relaycheck.checker.logic.LogicFault;
import dev.relaycheck.checker.search.Verdict;
import dev.relaycheck.checker.walk.WalkSearch;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Witness;
import dev.relaycheck.model.shard.ShardFile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The walks of {@code random}'s shards as rows of their shard files, and back: per scenario, one row per walk, the
 * walks' time, and a logic fault the shard found only by re-asking its questions after its walks (no walk leads to
 * it, so the merge cannot walk it again: it reports the shard's line).
 */
record WalkTallies(List<WalkSearch.Tally> tallies, long nanos, List<String> recheckFaults, List<Verdict> recheckVerdicts) {
    private static final String WALK = "walk";
    private static final String TIME = "time";
    private static final String RECHECK = "recheck";
    private static final String FAULT = "fault";

    static List<List<String>> rows(WalkSearch.Walks w) {
        String scenario = w.result().scenario().name();
        List<List<String>> rows = new ArrayList<>();
        for (WalkSearch.Tally t : w.tallies()) {
            List<String> seen = new ArrayList<>();
            t.witnesses().forEach((x, n) -> seen.add(x + "=" + n));
            rows.add(List.of(WALK, scenario, Long.toString(t.index()), Integer.toString(t.steps()), Integer.toString(t.heals()),
                    failure(t), String.join(",", seen)));
        }
        rows.add(List.of(TIME, scenario, Long.toString(w.result().nanos())));
        w.result().logicFault().filter(f -> f.doing() == LogicFault.Doing.RECHECKING).ifPresent(f -> rows.add(List.of(RECHECK,
                scenario, f.failure().verdict(), f.failure().line().replace('\t', ' '))));
        return rows;
    }

    /** The walks of scenario {@code scenario} in every shard; a row that is not a walk of its shard is refused. */
    static WalkTallies of(List<ShardFile> files, String scenario) {
        List<WalkSearch.Tally> tallies = new ArrayList<>();
        long nanos = 0;
        List<String> faults = new ArrayList<>();
        List<Verdict> verdicts = new ArrayList<>();
        for (ShardFile f : files) {
            try {
                for (List<String> r : f.rows(WALK)) {
                    if (r.get(0).equals(scenario)) {
                        long index = Long.parseLong(r.get(1));
                        if (!f.shard().owns(index)) {
                            throw new UsageException("shard " + f.shard() + " holds walk #" + index + ", which is not one of its walks");
                        }
                        tallies.add(new WalkSearch.Tally(index, Integer.parseInt(r.get(2)), Integer.parseInt(r.get(3)),
                                broke(r.get(4)), r.get(4).equals(FAULT), witnesses(r.get(5))));
                    }
                }
                for (List<String> r : f.rows(TIME)) {
                    nanos += r.get(0).equals(scenario) ? Long.parseLong(r.get(1)) : 0;
                }
                for (List<String> r : f.rows(RECHECK)) {
                    if (r.get(0).equals(scenario)) {
                        faults.add("shard " + f.shard() + ", re-asking its questions after its walks: " + r.get(2));
                        verdicts.add(Verdict.valueOf(r.get(1).replace('-', '_')));
                    }
                }
            } catch (RuntimeException e) {
                if (e instanceof UsageException) {
                    throw e;
                }
                throw new UsageException("shard " + f.shard() + ": a walk row of " + scenario + " cannot be read (" + e.getMessage() + ")");
            }
        }
        return new WalkTallies(tallies, nanos, faults, verdicts);
    }

    /** A walk's failure column: '-', 'fault' (the logic broke its contract) or the invariants it broke, '+'-joined. */
    private static String failure(WalkSearch.Tally t) {
        return t.fault() ? FAULT : t.broke().isEmpty() ? "-" : String.join("+", t.broke().stream().map(Invariant::name).toList());
    }

    private static List<Invariant> broke(String text) {
        return text.equals("-") || text.equals(FAULT) ? List.of() : Arrays.stream(text.split("\\+")).map(Invariant::valueOf).toList();
    }

    private static Map<Witness, Long> witnesses(String text) {
        Map<Witness, Long> w = new EnumMap<>(Witness.class);
        if (!text.isEmpty()) {
            for (String pair : text.split(",")) {
                String[] kv = pair.split("=");
                w.put(Witness.valueOf(kv[0]), Long.parseLong(kv[1]));
            }
        }
        return w;
    }
}
