package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.conformance.ConformanceCheck;
import dev.relaycheck.jdbc.conformance.ConformanceCheck.VariantResult;
import dev.relaycheck.jdbc.crash.CrashCheck;
import dev.relaycheck.jdbc.crash.CrashRound;
import dev.relaycheck.jdbc.race.RaceConfig;
import dev.relaycheck.jdbc.race.RaceHarness;
import dev.relaycheck.jdbc.race.RaceResult;
import dev.relaycheck.model.SplitMix64;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL checks as the relaycheck CLI calls them: conformance of the SQL relay to the model, real-thread
 * races, and crash-kill recovery. Each returns a {@link CheckResult}; {@link #main} runs them from the
 * command line and writes {@code results/sql/} (see {@link SqlChecksCli} for the arguments).
 */
public final class SqlChecks {
    public static final String CONFORMANCE = "sql-conformance";
    public static final String RACE = "sql-race";
    public static final String CRASH_KILL = "sql-crash-kill";

    /** Broken SQL the race must catch: the hazards that need real concurrency or show up under it. */
    public static final List<SqlVariant> RACE_CONTROLS = List.of(SqlVariant.CHECK_THEN_ACT_CLAIM,
            SqlVariant.CLAIM_IGNORES_LEASE, SqlVariant.ACK_IGNORES_TOKEN, SqlVariant.NO_DEDUP_MARKER,
            SqlVariant.NO_HEAD_OF_AGGREGATE);

    private SqlChecks() {
    }

    /** {@code SqlChecks [all|conformance|race|crash|replay] [options]}; exit 0 pass, 1 fail, 2 bad arguments. */
    public static void main(String[] args) {
        System.exit(SqlChecksCli.run(args, System.out, System.err));
    }

    /**
     * Drives the correct SQL relay and every broken SQL variant against the correct model on
     * {@code seeds} seeded random schedules per reference scenario (soak excluded); the correct relay also
     * with the conditional-update claim on a quarter as many seeds.
     */
    public static CheckResult conformance(long baseSeed, int seeds, PrintStream progress) {
        try {
            List<CheckRow> rows = new ArrayList<>();
            StringBuilder report = new StringBuilder("SQL conformance: the explorer's random walks of the correct model ("
                    + "RandomSchedules.walk, length " + ConformanceCheck.SCHEDULE_LENGTH + ", seeds SplitMix64.derive(" + baseSeed
                    + ", i) for i < " + seeds + ") on " + ConformanceCheck.scenarios().size() + " scenarios, driven through the "
                    + "model and the SQL relay on two H2 in-memory databases (outbox, consumer), compared after every step.\n\n");
            long runs = 0;
            VariantResult skip = ConformanceCheck.run(SqlVariant.CORRECT, ClaimForm.SKIP_LOCKED, baseSeed, seeds, progress);
            VariantResult cond = ConformanceCheck.run(SqlVariant.CORRECT, ClaimForm.CONDITIONAL_UPDATE, baseSeed,
                    Math.max(1, seeds / 4), progress);
            runs += skip.schedules() + cond.schedules();
            boolean ok = skip.asExpected() && cond.firstFailure() == null;
            String detail = !skip.asExpected() ? skip.detail() : cond.firstFailure() != null
                    ? "conditional-update claim: " + cond.detail() : skip.detail() + "; conditional-update claim: " + cond.schedules()
                    + " schedules, no divergence";
            rows.add(CheckRow.of(CONFORMANCE, SqlVariant.CORRECT.id(), true, ok ? "PASS" : "FAILED", detail));
            report.append(line("correct (SKIP LOCKED claim)", skip.verdict(), skip))
                    .append(line("correct (conditional-update claim)", cond.firstFailure() == null ? "PASS" : "FAILED", cond))
                    .append("      SQL steps compared, by outcome: ").append(skip.outcomeKinds()).append("\n")
                    .append("      witnesses reached: ").append(skip.witnesses()).append("\n");
            for (SqlVariant v : SqlVariant.broken()) {
                VariantResult r = ConformanceCheck.run(v, ClaimForm.SKIP_LOCKED, baseSeed, seeds, null);
                runs += r.schedules();
                rows.add(CheckRow.of(CONFORMANCE, v.id(), false, r.verdict(), r.detail()));
                report.append(line(v.id(), r.verdict(), r)).append("      SQL: ").append(v.statement()).append('\n');
                if (r.firstFailure() != null) {
                    report.append("      replay: SqlChecks replay --target ").append(v.id()).append(" --scenario ")
                            .append(r.firstFailure().scenario()).append(" --walk-seed ").append(r.firstFailure().seed()).append('\n');
                }
                if (progress != null) {
                    progress.println("  " + v.id() + ": " + r.verdict() + " " + r.detail());
                }
            }
            return new CheckResult(CONFORMANCE, rows, runs, report.toString());
        } catch (SQLException e) {
            throw new IllegalStateException("H2 failed during the conformance check: " + e.getMessage(), e);
        }
    }

    private static String line(String what, String verdict, VariantResult r) {
        return String.format("%-34s %-7s %s%n", what, verdict, r.detail());
    }

    /**
     * Kills a child JVM running the relay on H2 files {@code roundsPerCutPoint} times at each cut point and
     * recovers; then the negative controls. Files go under {@code workDir}.
     */
    public static CheckResult crashKill(int roundsPerCutPoint, Path workDir, PrintStream progress) {
        try {
            List<CrashCheck.TargetResult> results = CrashCheck.run(workDir, roundsPerCutPoint, progress);
            List<CheckRow> rows = new ArrayList<>();
            StringBuilder report = new StringBuilder("SQL crash-kill: a child JVM runs the relay on two H2 file databases "
                    + "(WRITE_DELAY=0), reports that it stands right after a commit and blocks; the parent kills it with SIGKILL "
                    + "and restarts a fresh relay on the same files.\n\n");
            long kills = 0;
            for (CrashCheck.TargetResult t : results) {
                rows.add(CheckRow.of(CRASH_KILL, t.target(), t.expectClean(), t.verdict(), t.detail()));
                report.append(t.target()).append(": ").append(t.verdict()).append(" - ").append(t.detail()).append('\n');
                for (CrashRound r : t.rounds()) {
                    kills++;
                    report.append("    ").append(r.summary()).append("\n      child: ").append(r.at()).append('\n');
                }
            }
            return new CheckResult(CRASH_KILL, rows, kills, report.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (SQLException e) {
            throw new IllegalStateException("H2 failed during the crash-kill check: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** {@link #crashKill(int, Path, PrintStream)} under {@code target/sql-crash-kill}. */
    public static CheckResult crashKill(int roundsPerCutPoint, PrintStream progress) {
        return crashKill(roundsPerCutPoint, Path.of("target", "sql-crash-kill"), progress);
    }

    /**
     * Real-thread races: the correct relay {@code rounds} times in each of three configurations (SKIP LOCKED
     * claim, conditional-update claim, one shared database), each must end clean; each race control must
     * be caught within {@code max(rounds, 5)} races.
     */
    public static CheckResult race(int rounds, long baseSeed, PrintStream progress) {
        try {
            List<CheckRow> rows = new ArrayList<>();
            StringBuilder report = new StringBuilder("SQL race: poller threads with their own connections, short leases, "
                    + "seeded stalls, lost acknowledgements, consumer rollbacks and crashes, over H2 in memory. Thread timing "
                    + "is not reproducible; the seed fixes each poller's fault choices.\n\n");
            long runs = 0;
            List<RaceResult> correct = new ArrayList<>();
            for (int i = 0; i < rounds; i++) {
                long seed = SplitMix64.derive(baseSeed, i);
                for (RaceConfig cfg : List.of(RaceConfig.defaults(SqlVariant.CORRECT, seed),
                        RaceConfig.defaults(SqlVariant.CORRECT, seed).withForm(ClaimForm.CONDITIONAL_UPDATE),
                        RaceConfig.defaults(SqlVariant.CORRECT, seed).withSharedDatabase(true))) {
                    RaceResult r = RaceHarness.run(cfg);
                    correct.add(r);
                    report.append("  ").append(r.summary()).append('\n');
                    if (progress != null) {
                        progress.println("  " + r.summary());
                    }
                }
            }
            runs += correct.size();
            rows.add(correctRaceRow(correct));
            for (SqlVariant v : RACE_CONTROLS) {
                RaceResult caught = null;
                int tried = 0;
                for (int i = 0; i < Math.max(rounds, 5) && caught == null; i++) {
                    RaceResult r = RaceHarness.run(RaceConfig.defaults(v, SplitMix64.derive(baseSeed, i)));
                    tried++;
                    report.append("  ").append(r.summary()).append('\n');
                    if (!r.clean()) {
                        caught = r;
                    }
                }
                runs += tried;
                String detail = caught == null ? "not caught in " + tried + " races"
                        : caught.violations().get(0).invariant() + " (race seed " + caught.config().seed() + ")";
                rows.add(CheckRow.of(RACE, v.id(), false, caught == null ? "ESCAPED" : "CAUGHT", detail));
                if (progress != null) {
                    progress.println("  " + v.id() + ": " + (caught == null ? "ESCAPED" : "CAUGHT " + caught.violations().get(0)));
                }
            }
            return new CheckResult(RACE, rows, runs, report.toString());
        } catch (SQLException e) {
            throw new IllegalStateException("H2 failed during the race check: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static CheckRow correctRaceRow(List<RaceResult> races) {
        for (RaceResult r : races) {
            if (!r.clean()) {
                return CheckRow.of(RACE, SqlVariant.CORRECT.id(), true, "FAILED", r.violations().get(0) + " (race seed "
                        + r.config().seed() + ", " + r.config().form() + ")");
            }
            if (r.errors() > 0) {
                return CheckRow.of(RACE, SqlVariant.CORRECT.id(), true, "FAILED", r.errors() + " SQL errors, first: " + r.firstError());
            }
        }
        int reclaims = races.stream().mapToInt(RaceResult::reclaims).sum();
        int duplicates = races.stream().mapToInt(RaceResult::duplicates).sum();
        int stale = races.stream().mapToInt(RaceResult::staleRejected).sum();
        if (reclaims == 0 || duplicates == 0 || stale == 0) {
            return CheckRow.of(RACE, SqlVariant.CORRECT.id(), true, "FAILED", "vacuous: the races never re-claimed a lease, "
                    + "absorbed a duplicate and refused a stale token");
        }
        return CheckRow.of(RACE, SqlVariant.CORRECT.id(), true, "PASS", races.size() + " races (SKIP LOCKED, conditional update, "
                + "shared database): every event DELIVERED once, one marker each, stock exact, one live lease per row, "
                + "stale tokens refused");
    }
}
