package dev.relaycheck.junit;

import com.team.outbox.TeamRelayCheck;
import com.team.outbox.broken.UnfencedMarkSent;
import dev.relaycheck.model.Invariant;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

/**
 * {@link CheckRelayCode} on a team's relay (plain JDBC, its own consumer and producer, written outside relaycheck), and
 * what a failing one reports: the trace statement by statement and the {@code mvn test} line, which run with the
 * schedule it gives reproduces the failure.
 */
class CheckRelayCodeTest {

    @CheckRelayCode(TeamRelayCheck.class)
    void aTeamsRelayPasses() {
    }

    @CheckRelayCode(value = UnfencedMarkSent.class, expectViolation = Invariant.STALE_ACK_REJECTED)
    void aNegativeControlPassesOnlyWhenTheViolationIsFound() {
    }

    /** Run by the engine below only. */
    static class Failing {
        @CheckRelayCode(UnfencedMarkSent.class)
        void unfencedRelayPasses() {
        }

        @CheckRelayCode(value = TeamRelayCheck.class, expectViolation = Invariant.STALE_ACK_REJECTED)
        void correctRelayBreaksFencing() {
        }
    }

    @Test
    void aViolationFailsTheTestWithTheTraceAndTheLineThatRunsItAgain() {
        List<Event> failed = EngineTestKit.engine("junit-jupiter").selectors(selectClass(Failing.class)).execute()
                .testEvents().failed().list();
        assertThat(failed).hasSize(2);
        String violation = message(failed, "unfencedRelayPasses");
        assertThat(violation).contains("relay com.team.outbox.broken.UnfencedMarkSent on h2")
                .containsPattern("FAILED STALE_ACK_REJECTED in run \\d+ .*: relay-\\d'* changed E\\d")
                .contains("<== STALE_ACK_REJECTED")
                .containsPattern("replay: mvn test -Dtest='CheckRelayCodeTest\\$Failing#unfencedRelayPasses' -Drelaycheck\\.(schedule|seed)=");
        assertThat(message(failed, "correctRelayBreaksFencing"))
                .contains("expected relay com.team.outbox.TeamRelayCheck to break one of [STALE_ACK_REJECTED] on h2, but it did not");

        Matcher schedule = Pattern.compile("-Drelaycheck\\.schedule='([^']*)'").matcher(violation);
        assertThat(schedule.find()).as(violation).isTrue();
        System.setProperty(RelayCodeChecker.SCHEDULE_PROPERTY, schedule.group(1));
        try {
            List<Event> again = EngineTestKit.engine("junit-jupiter").selectors(selectMethod(Failing.class, "unfencedRelayPasses")).execute()
                    .testEvents().failed().list();
            assertThat(again).hasSize(1);
            assertThat(message(again, "unfencedRelayPasses")).contains("breaks [STALE_ACK_REJECTED at step")
                    .contains("<== STALE_ACK_REJECTED");
        } finally {
            System.clearProperty(RelayCodeChecker.SCHEDULE_PROPERTY);
        }
    }

    private static String message(List<Event> failed, String method) {
        return failed.stream().filter(e -> e.getTestDescriptor().getDisplayName().startsWith(method)).findFirst()
                .flatMap(e -> e.getPayload(org.junit.platform.engine.TestExecutionResult.class)).flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable)
                .map(Throwable::getMessage).orElseThrow();
    }
}
