package dev.relaycheck.jdbc.crash;

import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.db.Dialect;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.relay.SqlVariant;
import dev.relaycheck.model.summary.SummaryRow;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The crash-kill check's plan: the correct relay killed {@code rounds} times at each cut point (the kill
 * landing at a different commit and with a different batch size each round), and negative controls that
 * the same kill must expose: split consumers, ack-before-deliver, a consumer without dedup, a producer
 * outside one transaction, and H2 itself without WRITE_DELAY=0.
 */
public final class CrashCheck {
    private CrashCheck() {
    }

    /** A control: a broken relay (or a non-durable H2) and the cut that exposes it. */
    public record Control(String target, SqlVariant variant, boolean durable, CutPoint cut) {
    }

    /** Target name of the durability control: the correct relay on H2 with its default write delay. */
    public static final String H2_WRITE_DELAY = "h2-default-write-delay";

    public static List<Control> controls() {
        return List.of(
                new Control(SqlVariant.MARKER_BEFORE_EFFECT.id(), SqlVariant.MARKER_BEFORE_EFFECT, true, CutPoint.AFTER_CONSUMER_COMMIT),
                new Control(SqlVariant.EFFECT_BEFORE_MARKER.id(), SqlVariant.EFFECT_BEFORE_MARKER, true, CutPoint.AFTER_CONSUMER_COMMIT),
                new Control(SqlVariant.ACK_BEFORE_DELIVER.id(), SqlVariant.ACK_BEFORE_DELIVER, true, CutPoint.AFTER_ACK),
                new Control(SqlVariant.NO_DEDUP_MARKER.id(), SqlVariant.NO_DEDUP_MARKER, true, CutPoint.AFTER_CONSUMER_COMMIT),
                new Control(SqlVariant.OUTBOX_OUTSIDE_TRANSACTION.id(), SqlVariant.OUTBOX_OUTSIDE_TRANSACTION, true, CutPoint.AFTER_PRODUCER_COMMIT),
                new Control(H2_WRITE_DELAY, SqlVariant.CORRECT, false, CutPoint.AFTER_CONSUMER_COMMIT));
    }

    /** Per target: the rounds run and whether the outcome was the expected one ({@code notApplicable}: not run, and why). */
    public record TargetResult(String target, boolean expectClean, List<CrashRound> rounds, String notApplicable) {
        public TargetResult(String target, boolean expectClean, List<CrashRound> rounds) {
            this(target, expectClean, rounds, null);
        }

        public boolean asExpected() {
            if (notApplicable != null) {
                return true;
            }
            return expectClean ? rounds.stream().allMatch(CrashRound::clean) : rounds.stream().anyMatch(CrashCheck::exposed);
        }

        /**
         * No round found a problem, but one ran past its child's time limit twice (a correct relay expected
         * clean; a control not yet exposed): that is no verdict, so neither PASS/ESCAPED nor FAILED/CAUGHT.
         */
        public boolean inconclusive() {
            return notApplicable == null && rounds.stream().noneMatch(CrashCheck::exposed)
                    && rounds.stream().anyMatch(r -> !r.concluded());
        }

        public String verdict() {
            if (notApplicable != null) {
                return SummaryRow.NOT_APPLICABLE;
            }
            if (inconclusive()) {
                return SummaryRow.INCONCLUSIVE;
            }
            if (expectClean) {
                return asExpected() ? "PASS" : "FAILED";
            }
            return asExpected() ? "CAUGHT" : "ESCAPED";
        }

        public String detail() {
            if (notApplicable != null) {
                return notApplicable;
            }
            if (inconclusive()) {
                return rounds.stream().filter(r -> !r.concluded()).findFirst().map(CrashRound::summary).orElseThrow();
            }
            if (expectClean) {
                return rounds.stream().filter(CrashCheck::exposed).findFirst().map(CrashRound::summary)
                        .orElse(rounds.size() + " SIGKILLs (exit 137) at " + rounds.stream().map(r -> r.cut().id()).distinct().count()
                                + " cut points, every recovery complete: all DELIVERED, one marker each, stock exact"
                                + rounds.stream().flatMap(r -> r.unpromised().stream()).findFirst().map(u -> "; not promised: " + u).orElse(""));
            }
            return rounds.stream().filter(CrashCheck::exposed).findFirst().map(r -> r.problems().get(0) + " (killed " + r.cut().id()
                    + " #" + r.nth() + ")").orElse("not caught in " + rounds.size() + " kills");
        }
    }

    /**
     * Kills {@code subject} {@code rounds} times at every cut point, then every control once to three times;
     * H2 files go under {@code baseDir}.
     */
    public static List<TargetResult> run(RelayUnderTest subject, DbTarget db, Path baseDir, int rounds, boolean withControls,
                                         PrintStream progress)
            throws IOException, SQLException, InterruptedException {
        CrashKill kill = new CrashKill(baseDir);
        List<CrashRound> correct = new ArrayList<>();
        for (CutPoint cut : CutPoint.of(subject.traits().deliversAndAcks())) {
            for (int r = 0; r < rounds; r++) {
                int batch = 1 + r % 2;
                int nth = 1 + (r / 2) % commits(cut, batch); // a different commit each round: first event, later ones, mid-batch
                CrashRound round = kill.round(subject, db, true, cut, nth, batch, "subject-" + cut.id() + "-" + r);
                report(progress, round);
                correct.add(round);
            }
        }
        List<TargetResult> out = new ArrayList<>();
        out.add(new TargetResult(subject.id(), subject.expectCorrect(), correct));
        for (Control c : withControls ? controls() : List.<Control>of()) {
            if (!c.durable() && db.dialect() != Dialect.H2) {
                out.add(new TargetResult(c.target(), false, List.of(), "no " + db.id() + " counterpart: H2's write delay is an "
                        + "embedded database's setting; a PostgreSQL server outlives the killed relay and a commit it acknowledged is kept"));
                continue;
            }
            List<CrashRound> tried = new ArrayList<>();
            // a broken relay is exposed by one kill; the write-delay loss depends on timing, so allow three
            for (int r = 0; r < 3 && tried.stream().noneMatch(CrashCheck::exposed); r++) {
                CrashRound round = kill.round(RelayUnderTest.of(c.variant()), db, c.durable(), c.cut(), 1 + r, 1, c.target() + "-" + r);
                report(progress, round);
                tried.add(round);
            }
            out.add(new TargetResult(c.target(), false, tried));
        }
        return out;
    }

    /** A round that found a problem: within the time limit, so a finding about the relay, not about the machine. */
    static boolean exposed(CrashRound r) {
        return r.concluded() && !r.problems().isEmpty();
    }

    /** How many commits of this kind the child makes on the way through the scenario's four events. */
    static int commits(CutPoint cut, int batch) {
        int events = CrashWorld.scenario(batch).events().size();
        return cut == CutPoint.AFTER_CLAIM ? (events + batch - 1) / batch : events;
    }

    private static void report(PrintStream progress, CrashRound round) {
        if (progress != null) {
            progress.println("  " + round.summary());
        }
    }
}
