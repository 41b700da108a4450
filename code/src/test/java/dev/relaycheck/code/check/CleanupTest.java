package dev.relaycheck.code.check;

import com.team.outbox.cleanup.PurgeLeased;
import com.team.outbox.cleanup.PurgeSent;
import dev.relaycheck.code.run.RelayRun;
import dev.relaycheck.code.run.RunResult;
import dev.relaycheck.code.run.Settings;
import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.model.Invariant;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The team's cleanup job as a hazard of its own: relaycheck runs the purge as the actor {@code cleanup}, at any point
 * between the relay's statements. A purge of sent rows passes, having deleted rows; one that also takes leased rows
 * loses events, and the finding names the cleanup's step.
 */
class CleanupTest {

    @Test
    void aPurgeOfTheSentRowsPassesHavingPurged() throws SQLException {
        CodeCheck.Outcome o = CodeCheckTest.check(new PurgeSent(), Settings.defaults());
        assertThat(o.verdict()).as(o.failures().toString()).isEqualTo(CodeCheck.Verdict.PASSED);
        boolean purged = IntStream.range(0, 8).anyMatch(i -> trace(new PurgeSent(), i)
                .matches("(?s).*\\n\\s*\\d+\\s+cleanup\\s+COMMIT\\s+\\[-E\\d \\(was DELIVERED\\).*"));
        assertThat(purged).as("the cleanup deleted a delivered row in one of the first runs").isTrue();
    }

    @Test
    void aPurgeThatAlsoTakesLeasedRowsLosesTheirEventsNamingTheCleanupStep() throws SQLException {
        CodeCheck.Failure f = CodeCheckTest.failure(new PurgeLeased(), Settings.defaults(), Invariant.NO_LOST_EVENT);
        assertThat(f.finding().detail()).containsPattern("^E\\d's row was deleted at step \\d+ by cleanup while PENDING\\[relay-\\d+'* until "
                + "t=\\d+s\\], and its effect was never applied: the event is lost$");
        RunResult again = new RelayRun(new PurgeLeased(), DbTarget.h2(), Settings.defaults(),
                CodeCheck.strategy("schedule", 0, Settings.defaults(), f.result().schedule()), 0).run();
        assertThat(again.findings()).anyMatch(x -> x.invariant() == Invariant.NO_LOST_EVENT && x.detail().equals(f.finding().detail()));
    }

    private static String trace(PurgeSent relay, int run) {
        try {
            return CodeCheck.run(relay, DbTarget.h2(), Settings.defaults(), CodeCheck.RunId.of(1, run)).traceText();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
