package dev.relaycheck.integration;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * relaycheck in a team's build (src/test/projects/team-relay: its own relay logic, relaycheck-junit in its tests,
 * relaycheck-maven-plugin's check bound to verify), run by a real mvn: the check passes the team's logic and fails
 * the build on its unfenced copy, naming the verdict and the report; the replay line that failure printed, run
 * from the project's directory, reproduces it; a JUnit failure's replay line does the same.
 */
class TeamBuildTest {
    private static Path project;

    @BeforeAll
    static void installed() {
        ChildMaven.requireThisBuildInstalled();
        project = ChildMaven.copy(Path.of("src/test/projects/team-relay").toAbsolutePath(), "team-relay");
    }

    @Test
    void verifyRunsTheCheckOnTheTeamsLogicAndFailsTheBuildOnItsUnfencedCopy() {
        ChildMaven.Run clean = ChildMaven.mvn(project, List.of("verify"));
        assertThat(clean.succeeded()).as(clean.output()).isTrue();
        assertThat(clean.output()).contains("--- relaycheck-maven-plugin:" + ChildMaven.VERSION + ":check (default) @ team-relay ---")
                .contains("relaycheck: clean; report " + project.resolve("target/relaycheck/index.html"))
                .containsPattern("PASS: team-relay passed (\\d+) of \\1 scenarios");
        assertThat(project.resolve("target/relaycheck/TEST-relaycheck.xml")).content().contains("name=\"team-relay on stale-ack-after-expiry\"/>");

        ChildMaven.Run broken = ChildMaven.mvn(project, List.of("verify", "-Dteam.logic=com.team.UnfencedTeamRelayLogic"));
        assertThat(broken.exit()).as(broken.output()).isNotZero();
        assertThat(broken.output()).contains("BUILD FAILURE").contains("relaycheck check: ")
                .contains("report " + project.resolve("target/relaycheck/index.html"))
                .contains("VIOLATION STALE_ACK_REJECTED")
                .contains("JUnit XML " + project.resolve("target/relaycheck/TEST-relaycheck.xml"));

        assertThat(broken.output()).contains("replay: mvn relaycheck:replay -Drelaycheck.line=");

        // the next build replays the failures it recorded first (the regression corpus), before any search
        ChildMaven.Run corpus = ChildMaven.mvn(project, List.of("verify", "-Dteam.logic=com.team.UnfencedTeamRelayLogic"));
        assertThat(corpus.exit()).as(corpus.output()).isNotZero();
        assertThat(corpus.output()).contains("recorded failures of team-relay-unfenced replayed first")
                .contains("came back (" + project.resolve("target/relaycheck/failures") + ", replayed before any search)")
                .doesNotContain("== model kill matrix");

        // the line that build printed, pasted into a shell in the project's directory
        Matcher replay = Pattern.compile("replay: (mvn relaycheck:replay -Drelaycheck\\.line=.*)").matcher(corpus.output());
        assertThat(replay.find()).as(corpus.output()).isTrue();
        ChildMaven.Run again = ChildMaven.pasted(project, replay.group(1));
        assertThat(again.exit()).as(again.output()).isNotZero();
        assertThat(again.output()).contains("REPRODUCED STALE_ACK_REJECTED").contains("relaycheck replay: ");
    }

    @Test
    void aJUnitFailuresReplayLineRunsTheSameScheduleAgainFromTheProjectDirectory() {
        ChildMaven.Run first = ChildMaven.mvn(project, List.of("test", "-Dtest=UnfencedShopRelayTest"));
        assertThat(first.exit()).as(first.output()).isNotZero();
        Matcher replay = Pattern.compile("replay: (mvn test -Dtest=UnfencedShopRelayTest#theUnfencedShopRelayRejectsStaleAcks "
                + "-Drelaycheck\\.seed=(-?\\d+))\\n").matcher(first.output());
        assertThat(replay.find()).as(first.output()).isTrue();
        String violation = violationLine(first.output());

        // pasted as printed: the seed's schedule runs first, so the failure it gives is that seed's again
        ChildMaven.Run again = ChildMaven.pasted(project, replay.group(1));
        assertThat(again.exit()).as(again.output()).isNotZero();
        assertThat(again.output()).contains("Tests run: 1, Failures: 1");
        assertThat(violationLine(again.output())).isEqualTo(violation);
        assertThat(again.output()).contains(replay.group(1) + "\n");
    }

    @Test
    void theTeamsRelayIsCheckedByItsOwnCodeInVerifyAndInItsTestsAndAFailuresLineReplaysIt() {
        ChildMaven.Run broken = ChildMaven.mvn(project, List.of("verify", "-Dteam.relay=com.team.outbox.UnfencedOrderOutboxRelayCheck",
                "-Dtest=OrderRelayCodeTest"));
        assertThat(broken.exit()).as(broken.output()).isNotZero();
        assertThat(broken.output()).contains("--- relaycheck-maven-plugin:" + ChildMaven.VERSION + ":check (relay-code) @ team-relay ---")
                .contains("relaycheck check: FAIL: relay com.team.outbox.UnfencedOrderOutboxRelayCheck by its own code")
                .contains("Tests run: 1, Failures: 0");

        ChildMaven.Run first = ChildMaven.mvn(project, List.of("test", "-Dtest=UnfencedOrderRelayCodeTest"));
        assertThat(first.exit()).as(first.output()).isNotZero();
        assertThat(first.output()).containsPattern("FAILED STALE_ACK_REJECTED in run \\d+");
        Matcher replay = Pattern.compile("replay: (mvn test -Dtest=UnfencedOrderRelayCodeTest#theUnfencedRelayIsSafe -Drelaycheck\\.(schedule|seed)=.*)\\n")
                .matcher(first.output());
        assertThat(replay.find()).as(first.output()).isTrue();

        ChildMaven.Run again = ChildMaven.pasted(project, replay.group(1));
        assertThat(again.exit()).as(again.output()).isNotZero();
        assertThat(again.output()).contains("Tests run: 1, Failures: 1").containsPattern("breaks \\[STALE_ACK_REJECTED at step \\d+");
    }

    private static String violationLine(String output) {
        Matcher m = Pattern.compile("VIOLATION STALE_ACK_REJECTED in scenario .*").matcher(output);
        assertThat(m.find()).as(output).isTrue();
        return m.group();
    }
}
