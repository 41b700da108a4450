package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.conformance.ConformanceCheck;
import dev.relaycheck.jdbc.conformance.ConformanceCheck.VariantResult;
import dev.relaycheck.jdbc.conformance.ConformanceShards;
import dev.relaycheck.jdbc.crash.CrashCheck;
import dev.relaycheck.jdbc.crash.CrashRound;
import dev.relaycheck.jdbc.crash.CutPoint;
import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.db.Dialect;
import dev.relaycheck.jdbc.race.RaceConfig;
import dev.relaycheck.jdbc.race.RaceHarness;
import dev.relaycheck.jdbc.race.RaceResult;
import dev.relaycheck.jdbc.relay.ClaimForm;
import dev.relaycheck.jdbc.relay.RelaySpec;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.relay.SqlVariant;
import dev.relaycheck.jdbc.result.SqlCheckResult;
import dev.relaycheck.jdbc.result.SqlFinding;
import dev.relaycheck.model.SplitMix64;
import dev.relaycheck.model.summary.SummaryRow;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL checks on one relay and database, each with its negative controls: conformance of the SQL relay to the model,
 * real-thread races, and crash-kill recovery. Each returns a {@link SqlCheckResult}; {@link SqlRun} runs them for
 * {@code relaycheck sql}, the checker's {@code check} for its SQL column.
 */
public final class SqlChecks {
    /** Broken SQL the race must catch: the hazards that need real concurrency or show up under it. */
    public static final List<SqlVariant> RACE_CONTROLS = List.of(SqlVariant.CHECK_THEN_ACT_CLAIM,
            SqlVariant.CLAIM_IGNORES_LEASE, SqlVariant.ACK_IGNORES_TOKEN, SqlVariant.NO_DEDUP_MARKER,
            SqlVariant.NO_HEAD_OF_AGGREGATE);

    /**
     * Seeds per scenario the broken variants get at least, whatever the relay under test gets: a control stops at
     * its first violation, so a few more seeds cost little, and the rarest hazard of the catalogue (a stale
     * release, release-ignores-token) first shows at seed index 15 from base seed 1.
     */
    public static final int CONTROL_SEEDS = 20;

    private SqlChecks() {
    }

    /**
     * Drives the relay under test and then every broken SQL variant against the correct model on {@code seeds}
     * seeded random schedules per reference scenario (soak excluded), on {@code db}; the reference relay also
     * with the conditional-update claim on a quarter as many seeds.
     */
    public static SqlCheckResult conformance(RelayUnderTest subject, DbTarget db, long baseSeed, int seeds, PrintStream progress) {
        return conformance(subject, db, baseSeed, seeds, true, progress);
    }

    /** The same; without {@code controls} the broken variants do not run (they proved the check on this database before). */
    public static SqlCheckResult conformance(RelayUnderTest subject, DbTarget db, long baseSeed, int seeds, boolean controls,
                                          PrintStream progress) {
        return conformance(subject, db, baseSeed, seeds, controls, progress, ConformanceShards.whole());
    }

    /**
     * The same, as {@code shards} says: the whole check, one shard of every variant's schedules (the rows it tallied
     * in {@code shards}), or the merge of every shard's rows into the whole check's result.
     */
    public static SqlCheckResult conformance(RelayUnderTest subject, DbTarget db, long baseSeed, int seeds, boolean controls,
                                          PrintStream progress, ConformanceShards shards) {
        try {
            List<SummaryRow> rows = new ArrayList<>();
            List<SqlFinding> findings = new ArrayList<>();
            StringBuilder report = new StringBuilder("SQL conformance on " + db.describe() + ": the explorer's random walks of the "
                    + "correct model (RandomSchedules.walk, length " + ConformanceCheck.SCHEDULE_LENGTH + ", seeds SplitMix64.derive("
                    + baseSeed + ", i) for i < " + seeds + ") on " + ConformanceCheck.scenarios().size() + " scenarios, driven "
                    + "through the model and the relay on two databases (outbox, consumer), compared after every step.\n"
                    + subject.id() + ": " + subject.traits().describe() + "; compared with model logic " + subject.traits().modelLogic().id()
                    + "\n\n");
            long runs = 0;
            VariantResult main = ConformanceCheck.run(subject, db, baseSeed, seeds, null, seeds, progress, shards);
            runs += main.schedules();
            main.finding().ifPresent(findings::add);
            boolean ok = main.asExpected();
            String detail = main.detail();
            report.append(line(subject.id(), main.verdict(), main)).append(speed(main));
            if (main.replayLine() != null) {
                report.append("      replay: ").append(main.replayLine()).append('\n');
            }
            if (subject.spec().equals(RelaySpec.REFERENCE)) {
                VariantResult cond = ConformanceCheck.run(RelayUnderTest.of(SqlVariant.CORRECT, ClaimForm.CONDITIONAL_UPDATE), db,
                        baseSeed, Math.max(1, seeds / 4), null, Math.max(1, seeds / 4), progress, shards);
                runs += cond.schedules();
                cond.finding().ifPresent(findings::add);
                ok &= cond.firstFailure() == null;
                detail = !main.asExpected() ? main.detail() : cond.firstFailure() != null ? "conditional-update claim: " + cond.detail()
                        : main.detail() + "; conditional-update claim: " + cond.schedules() + " schedules, no divergence";
                report.append(line("correct (conditional-update claim)", cond.firstFailure() == null ? "PASS" : "FAILED", cond));
            }
            rows.add(SummaryRow.of(SqlCheckResult.CONFORMANCE, subject.id(), subject.expectCorrect(), verdict(subject.expectCorrect(), ok), detail
                    + replaySuffix(main)));
            report.append("      SQL steps compared, by outcome: ").append(main.outcomeKinds()).append("\n")
                    .append("      witnesses reached: ").append(main.witnesses()).append("\n");
            for (SqlVariant v : controls ? SqlVariant.broken() : List.<SqlVariant>of()) {
                VariantResult r = ConformanceCheck.run(RelayUnderTest.of(v), db, baseSeed, Math.max(seeds, CONTROL_SEEDS),
                        v.exposingScenario(), v.exposingSeeds(), null, shards);
                runs += r.schedules();
                rows.add(SummaryRow.of(SqlCheckResult.CONFORMANCE, v.id(), false, r.verdict(), r.detail()));
                r.finding().ifPresent(findings::add);
                report.append(line(v.id(), r.verdict(), r)).append("      SQL: ").append(v.statement()).append('\n');
                if (r.replayLine() != null) {
                    report.append("      replay: ").append(r.replayLine()).append('\n');
                }
                if (progress != null) {
                    progress.println("  " + v.id() + " on " + db.id() + ": " + r.verdict() + " " + r.detail());
                }
            }
            return new SqlCheckResult(SqlCheckResult.CONFORMANCE, rows, runs, report.toString(), findings);
        } catch (SQLException e) {
            throw new IllegalStateException(db.id() + " failed during the conformance check: " + e.getMessage(), e);
        }
    }

    private static String verdict(boolean expectCorrect, boolean asExpected) {
        if (expectCorrect) {
            return asExpected ? "PASS" : "FAILED";
        }
        return asExpected ? "CAUGHT" : "ESCAPED";
    }

    private static String replaySuffix(VariantResult r) {
        return r.replayLine() == null || !r.relay().expectCorrect() ? "" : "; replay: " + r.replayLine();
    }

    private static String speed(VariantResult r) {
        return String.format("      %d SQL steps in %.1f s: %d steps/s%n", r.steps(), r.millis() / 1000.0, r.stepsPerSecond());
    }

    private static String line(String what, String verdict, VariantResult r) {
        return String.format("%-34s %-7s %s%n", what, verdict, r.detail());
    }

    /**
     * Kills a child JVM running the relay on H2 files {@code roundsPerCutPoint} times at each cut point and
     * recovers; then the negative controls. Files go under {@code workDir}.
     */
    public static SqlCheckResult crashKill(RelayUnderTest subject, DbTarget db, int roundsPerCutPoint, Path workDir, PrintStream progress) {
        return crashKill(subject, db, roundsPerCutPoint, workDir, true, progress);
    }

    /** The same; without {@code controls} only the relay under test is killed. */
    public static SqlCheckResult crashKill(RelayUnderTest subject, DbTarget db, int roundsPerCutPoint, Path workDir, boolean controls,
                                        PrintStream progress) {
        try {
            List<CrashCheck.TargetResult> results = CrashCheck.run(subject, db, workDir, roundsPerCutPoint, controls, progress);
            List<SummaryRow> rows = new ArrayList<>();
            List<SqlFinding> findings = new ArrayList<>();
            StringBuilder report = new StringBuilder("SQL crash-kill on " + db.describe() + ": a child JVM runs the relay "
                    + (db.dialect() == Dialect.H2 ? "on two H2 file databases (WRITE_DELAY=0)" : "against the server, which keeps running")
                    + ", reports that it stands right after a commit and blocks; the parent kills it with SIGKILL "
                    + "and restarts a fresh relay on the same databases.\n" + subject.id() + ": " + subject.traits().describe()
                    + "; cut points: " + CutPoint.of(subject.traits().deliversAndAcks()).stream().map(CutPoint::id).toList() + "\n\n");
            long kills = 0;
            for (CrashCheck.TargetResult t : results) {
                // each round kills at the same commit every time (cut point, n-th commit, batch): the line repeats the
                // first failing round alone
                boolean subjectRow = t.target().equals(subject.id());
                String reproduce = subjectRow && !t.asExpected() ? t.rounds().stream().filter(r -> !r.clean()).findFirst()
                        .map(r -> "; replay: " + r.replayLine(db)).orElse("") : "";
                rows.add(SummaryRow.of(SqlCheckResult.CRASH_KILL, t.target(), t.expectClean(), t.verdict(), t.detail() + reproduce));
                // the relay under test's failing rounds, the first of each cut point; a control's first catch
                List<String> cutsDrawn = new ArrayList<>();
                for (CrashRound r : t.rounds()) {
                    if (!cutsDrawn.contains(r.cut().id()) && (subjectRow || cutsDrawn.isEmpty()) && r.finding(db).isPresent()) {
                        cutsDrawn.add(r.cut().id());
                        findings.add(r.finding(db).get());
                    }
                }
                report.append(t.target()).append(": ").append(t.verdict()).append(" - ").append(t.detail()).append('\n');
                for (CrashRound r : t.rounds()) {
                    kills++;
                    report.append("    ").append(r.summary()).append("\n      child: ").append(r.at()).append('\n');
                    if (subjectRow && !r.clean() && subject.expectCorrect()) {
                        r.recovery().forEach(step -> report.append("      recovery: ").append(step).append('\n'));
                        report.append("      replay: ").append(r.replayLine(db)).append('\n');
                    }
                }
            }
            return new SqlCheckResult(SqlCheckResult.CRASH_KILL, rows, kills, report.toString(), findings);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (SQLException e) {
            throw new IllegalStateException(db.id() + " failed during the crash-kill check: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * Real-thread races: the correct relay {@code rounds} times in each of three configurations (SKIP LOCKED
     * claim, conditional-update claim, one shared database), each must end clean; each race control must
     * be caught within {@code max(rounds, 5)} races.
     */
    public static SqlCheckResult race(RelayUnderTest subject, DbTarget db, int rounds, long baseSeed, PrintStream progress) {
        return race(subject, db, rounds, baseSeed, true, progress);
    }

    /** The same; without {@code controls} only the relay under test races. */
    public static SqlCheckResult race(RelayUnderTest subject, DbTarget db, int rounds, long baseSeed, boolean controls, PrintStream progress) {
        try {
            List<SummaryRow> rows = new ArrayList<>();
            List<SqlFinding> findings = new ArrayList<>();
            StringBuilder report = new StringBuilder("SQL race on " + db.describe() + ": poller threads with their own connections, "
                    + "short leases, seeded stalls, lost acknowledgements, consumer rollbacks and crashes. Thread timing "
                    + "is not reproducible; the seed fixes each poller's fault choices.\n" + subject.id() + ": "
                    + subject.traits().describe() + "\n\n");
            long runs = 0;
            List<RaceResult> correct = new ArrayList<>();
            // thread timing decides whether a round re-claims a lease and refuses a stale token (the witnesses
            // without which a clean race proves nothing): a round that left them unreached is followed by another
            // seed, up to WITNESS_ROUNDS more, so a short run (--rounds 1) is not VACUOUS by bad luck; the verdict
            // still needs every witness, and a violation in any round fails it
            int extra = 0;
            for (int i = 0; i < rounds || (i < rounds + WITNESS_ROUNDS && !witnessesReached(subject, correct)); i++) {
                extra += i < rounds ? 0 : 1;
                long seed = SplitMix64.derive(baseSeed, i);
                // a deliver-and-ack relay runs both on one shared database (its handler may write through the relay's
                // transaction): two races all the same, so one round reaches re-claims and stale tokens as often
                List<RaceConfig> configs = new ArrayList<>(List.of(RaceConfig.defaults(subject, db, seed),
                        RaceConfig.defaults(subject, db, seed).withSharedDatabase(true)));
                if (subject.spec().equals(RelaySpec.REFERENCE)) {
                    configs.add(RaceConfig.defaults(RelayUnderTest.of(SqlVariant.CORRECT, ClaimForm.CONDITIONAL_UPDATE), db, seed));
                }
                for (RaceConfig cfg : configs) {
                    RaceResult r = RaceHarness.run(cfg, db);
                    correct.add(r);
                    report.append("  ").append(r.summary()).append('\n');
                    if (!r.clean() && subject.expectCorrect()) {
                        report.append("    replay: ").append(r.replayLine(db)).append('\n');
                    }
                    if (progress != null) {
                        progress.println("  " + r.summary());
                    }
                }
            }
            runs += correct.size();
            if (extra > 0) {
                report.append("  (").append(extra).append(" more round").append(extra == 1 ? "" : "s")
                        .append(" to reach a re-claim and a stale token)\n");
            }
            rows.add(subjectRaceRow(subject, db, correct));
            correct.stream().filter(r -> !r.clean()).findFirst().ifPresent(r -> findings.addAll(r.findings(db)));
            for (SqlVariant v : controls ? RACE_CONTROLS : List.<SqlVariant>of()) {
                RaceResult caught = null;
                int tried = 0;
                for (int i = 0; i < Math.max(rounds, 5) && caught == null; i++) {
                    RaceResult r = RaceHarness.run(RaceConfig.defaults(RelayUnderTest.of(v), db, SplitMix64.derive(baseSeed, i)), db);
                    tried++;
                    report.append("  ").append(r.summary()).append('\n');
                    if (!r.clean()) {
                        caught = r;
                    }
                }
                runs += tried;
                String detail = caught == null ? "not caught in " + tried + " races"
                        : caught.violations().get(0).invariant() + " (race seed " + caught.config().seed() + ")";
                rows.add(SummaryRow.of(SqlCheckResult.RACE, v.id(), false, caught == null ? "ESCAPED" : "CAUGHT", detail));
                if (caught != null) {
                    caught.finding(db).ifPresent(findings::add);
                }
                if (progress != null) {
                    progress.println("  " + v.id() + ": " + (caught == null ? "ESCAPED" : "CAUGHT " + caught.violations().get(0)));
                }
            }
            return new SqlCheckResult(SqlCheckResult.RACE, rows, runs, report.toString(), findings);
        } catch (SQLException e) {
            throw new IllegalStateException(db.id() + " failed during the race check: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * Rounds the race adds at most, one seed each, while the relay's races have not yet reached a re-claim and a
     * stale token (and, for a relay that redelivers, an absorbed duplicate); a violation stops them.
     */
    public static final int WITNESS_ROUNDS = 4;

    private static boolean witnessesReached(RelayUnderTest subject, List<RaceResult> races) {
        if (races.stream().anyMatch(r -> !r.clean() || r.errors() > 0)) {
            return true; // a finding: nothing more to look for
        }
        boolean deliversAndAcks = subject.traits().deliversAndAcks();
        return races.stream().mapToInt(RaceResult::reclaims).sum() > 0
                && races.stream().mapToInt(RaceResult::staleRejected).sum() > 0
                && (deliversAndAcks || races.stream().mapToInt(RaceResult::duplicates).sum() > 0);
    }

    private static SummaryRow subjectRaceRow(RelayUnderTest subject, DbTarget db, List<RaceResult> races) {
        String id = subject.id();
        for (RaceResult r : races) {
            if (!r.clean()) {
                return SummaryRow.of(SqlCheckResult.RACE, id, true, "FAILED", r.violationsText() + " (race seed "
                        + r.config().seed() + ", " + r.config().relay().spec().args() + (r.config().sharedDatabase() ? ", shared database" : "") + ")"
                        + (subject.expectCorrect() ? "; replay: " + r.replayLine(db) : ""));
            }
            if (r.errors() > 0) {
                return SummaryRow.of(SqlCheckResult.RACE, id, true, "FAILED", r.errors() + " SQL errors, first: " + r.firstError());
            }
        }
        int reclaims = races.stream().mapToInt(RaceResult::reclaims).sum();
        int duplicates = races.stream().mapToInt(RaceResult::duplicates).sum();
        int stale = races.stream().mapToInt(RaceResult::staleRejected).sum();
        boolean deliversAndAcks = subject.traits().deliversAndAcks(); // never redelivers an applied event: no duplicate to absorb
        if (reclaims == 0 || (duplicates == 0 && !deliversAndAcks) || stale == 0) {
            // thread timing decides whether a race reaches them (more rounds than WITNESS_ROUNDS did not): the races proved
            // nothing, which says nothing against the relay either, so neither a pass nor a failure
            return SummaryRow.of(SqlCheckResult.RACE, id, true, SummaryRow.INCONCLUSIVE, "vacuous: the races never re-claimed a lease, "
                    + (deliversAndAcks ? "" : "absorbed a duplicate ") + "and refused a stale token (thread timing decides "
                    + "whether they do, and " + races.size() + " races did not: rerun with more --rounds)");
        }
        String unpromised = races.stream().flatMap(r -> r.unpromised().stream()).findFirst()
                .map(v -> "; not promised, seen: " + v.invariant() + " (" + v.detail() + ")").orElse("");
        return SummaryRow.of(SqlCheckResult.RACE, id, true, "PASS", races.size() + " races (" + (subject.traits().deliversAndAcks()
                ? "one database: the handler may write through the relay's transaction" : "two databases, one shared database")
                + (subject.spec().equals(RelaySpec.REFERENCE) ? ", conditional-update claim" : "") + "): every event DELIVERED once, one marker each, stock exact, one live lease per row, "
                + "stale tokens refused" + unpromised);
    }
}
