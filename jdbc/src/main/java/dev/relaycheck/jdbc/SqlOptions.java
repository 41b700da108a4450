package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.crash.CutPoint;
import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.db.Dialect;
import dev.relaycheck.jdbc.relay.RelaySpec;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.shard.Shard;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What {@code relaycheck sql} is asked to do, as the command line (picocli's, in the checker) parsed it once; the
 * constructor rejects what does not go together, each with a one-line message.
 *
 * @param check     all, conformance, race, crash, replay or template
 * @param relay     the relay under test
 * @param db        {@code h2}, {@code postgres} or a {@code jdbc:postgresql:} URL ({@link DbTarget#named})
 * @param controls  whether the shipped broken variants run beside the relay
 * @param seeds     conformance seeds per scenario; null for the database's default
 * @param seed      the base seed
 * @param rounds    race rounds or kills per cut point; null for the check's default
 * @param out       where the reports go; null for the database's default folder
 * @param shard     the part of the conformance schedules this run takes
 * @param shardArgs the arguments that shape the schedules, as the user gave them: a shard records them for merge
 * @param replay    what {@code replay} runs again; null for every other check
 */
public record SqlOptions(String check, RelaySpec relay, String db, boolean controls, Integer seeds, long seed, Integer rounds,
                         Path out, Shard shard, List<String> shardArgs, Replay replay) {
    public static final List<String> CHECKS = List.of("all", "conformance", "race", "crash", "replay", "template");

    /** Conformance seeds per scenario by default: PostgreSQL steps cost about 7 times H2's. */
    public static final int DEFAULT_SEEDS_H2 = 125;
    public static final int DEFAULT_SEEDS_POSTGRES = 10;

    public SqlOptions {
        if (!CHECKS.contains(check)) {
            throw new IllegalArgumentException("unknown command '" + check + "' (" + String.join(", ", CHECKS) + ")");
        }
        requireRange("--seeds", seeds);
        requireRange("--rounds", rounds);
        if (check.equals("replay") != (replay != null)) {
            throw new IllegalArgumentException(replay == null ? "replay needs --scenario and --walk-seed, or --cut (and the "
                    + "relay: --target, --sql or --adapter)" : "a replay's options belong to 'replay'");
        }
        if (!shard.whole() && !check.equals("conformance")) {
            throw new IllegalArgumentException("--shard splits the conformance schedules: relaycheck sql conformance --shard I/N");
        }
        shardArgs = List.copyOf(shardArgs);
    }

    /** The options of a check that replays nothing, with the defaults. */
    public static SqlOptions of(String check, RelaySpec relay, String db) {
        return new SqlOptions(check, relay, db, true, null, 1, null, null, Shard.WHOLE, List.of(), null);
    }

    public int seedsFor(DbTarget target) {
        return seeds != null ? seeds : target.dialect() == Dialect.H2 ? DEFAULT_SEEDS_H2 : DEFAULT_SEEDS_POSTGRES;
    }

    /** Race rounds or kills per cut point: 3 for {@code sql race} alone, 5 otherwise. */
    public int roundsOrDefault() {
        return rounds != null ? rounds : check.equals("race") ? 3 : 5;
    }

    public Path outFor(DbTarget target) {
        return out != null ? out : Path.of("results", target.dialect() == Dialect.H2 ? "sql" : "sql-" + target.id());
    }

    /** One failure again, as its replay line names it. */
    public sealed interface Replay {
        /**
         * The replay the options name, or null when they name none; exactly one of a walk ({@code --scenario},
         * {@code --walk-seed}), a crash-kill round ({@code --cut}, {@code --nth}, {@code --batch}) or a race
         * ({@code --race-seed}, {@code --shared-database}), and only for {@code replay}; a walk judged by the
         * invariants {@code judge} names alone ({@code --judge}), or by every one where it is null.
         */
        static Replay of(String check, String scenario, Long walkSeed, String cut, Integer nth, Integer batch, Long raceSeed,
                         Boolean sharedDatabase, List<String> judge) {
            if (judge != null && (!check.equals("replay") || scenario == null)) {
                throw new IllegalArgumentException("--judge belongs to 'replay' of a conformance walk (--scenario, --walk-seed)");
            }
            boolean replay = check.equals("replay");
            if (replay && raceSeed != null) {
                if (cut != null || scenario != null) {
                    throw new IllegalArgumentException("replay takes one of --race-seed, --cut or --scenario");
                }
                return new Race(raceSeed, sharedDatabase != null && sharedDatabase);
            }
            if (raceSeed != null || sharedDatabase != null) {
                throw new IllegalArgumentException("--race-seed and --shared-database belong to 'replay' (one race)");
            }
            if (replay && cut != null) {
                CutPoint point = CutPoint.byId(cut).orElseThrow(() -> new IllegalArgumentException("unknown --cut '" + cut + "' ("
                        + Arrays.stream(CutPoint.values()).map(CutPoint::id).collect(Collectors.joining(", ")) + ")"));
                return new Kill(point, nth == null ? 1 : nth, batch == null ? 1 : batch);
            }
            if (cut != null || nth != null || batch != null) {
                throw new IllegalArgumentException("--cut, --nth and --batch belong to 'replay' (one crash-kill round)");
            }
            if (!replay) {
                return null;
            }
            if (scenario == null || walkSeed == null) {
                throw new IllegalArgumentException("replay needs --scenario and --walk-seed, or --cut (and the relay: --target, --sql or --adapter)");
            }
            return judge == null ? new Walk(scenario, walkSeed) : new Walk(scenario, walkSeed, invariants(judge));
        }

        private static Set<Invariant> invariants(List<String> names) {
            Set<Invariant> judged = EnumSet.noneOf(Invariant.class);
            for (String name : names) {
                judged.add(Arrays.stream(Invariant.values()).filter(i -> i.name().equals(name)).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("unknown invariant '" + name + "' in --judge ("
                                + Arrays.stream(Invariant.values()).map(Enum::name).collect(Collectors.joining(", ")) + ")")));
            }
            return judged;
        }
    }

    /**
     * {@code replay --scenario NAME --walk-seed N [--judge INVARIANT,...]}: one conformance walk, judged by every
     * invariant or, as a property check's replay line asks, by the property's alone.
     */
    public record Walk(String scenario, long walkSeed, Set<Invariant> judged) implements Replay {
        public Walk {
            if (ReferenceScenarios.byName(scenario).isEmpty()) {
                throw new IllegalArgumentException("unknown scenario '" + scenario + "'");
            }
            judged = Collections.unmodifiableSet(EnumSet.copyOf(judged)); // in the invariants' order, as printed
        }

        public Walk(String scenario, long walkSeed) {
            this(scenario, walkSeed, EnumSet.allOf(Invariant.class));
        }

        /** Whether the walk is judged by fewer than every invariant. */
        public boolean judgesSome() {
            return judged.size() < Invariant.values().length;
        }
    }

    /** {@code replay --cut CUT --nth N --batch N}: one crash-kill round, as a failing round's replay line names it. */
    public record Kill(CutPoint cut, int nth, int batch) implements Replay {
        public Kill {
            requireRange("--nth", nth);
            requireRange("--batch", batch);
        }
    }

    /** {@code replay --race-seed S --shared-database yes|no}: one race, as a failing race's replay line names it. */
    public record Race(long seed, boolean sharedDatabase) implements Replay {
    }

    private static void requireRange(String option, Integer n) {
        if (n != null && (n < 1 || n > 1_000_000)) {
            throw new IllegalArgumentException(option + " must be between 1 and 1000000, got " + n);
        }
    }
}
