package dev.relaycheck.integration;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
        ChildMaven.Run clean = ChildMaven.mvn(project, List.of("-o", "verify"));
        assertThat(clean.succeeded()).as(clean.output()).isTrue();
        assertThat(clean.output()).contains("--- relaycheck-maven-plugin:" + ChildMaven.VERSION + ":check (default) @ team-relay ---")
                .contains("relaycheck: clean; report " + project.resolve("target/relaycheck/index.html"))
                .containsPattern("PASS: team-relay passed (\\d+) of \\1 scenarios");
        assertThat(project.resolve("target/relaycheck/TEST-relaycheck.xml")).content().contains("name=\"team-relay on stale-ack-after-expiry\"/>");

        ChildMaven.Run broken = ChildMaven.mvn(project, List.of("-o", "verify", "-Dteam.logic=com.team.UnfencedTeamRelayLogic"));
        assertThat(broken.exit()).as(broken.output()).isNotZero();
        assertThat(broken.output()).contains("BUILD FAILURE").contains("relaycheck check: ")
                .contains("report " + project.resolve("target/relaycheck/index.html"))
                .contains("VIOLATION STALE_ACK_REJECTED")
                .contains("JUnit XML " + project.resolve("target/relaycheck/TEST-relaycheck.xml"));

        Matcher replay = Pattern.compile("replay: mvn relaycheck:replay (-Drelaycheck\\.line=.*)").matcher(broken.output());
        assertThat(replay.find()).as(broken.output()).isTrue();
        List<String> args = new ArrayList<>(List.of("-o", "relaycheck:replay"));
        args.addAll(shellWords(replay.group(1)));
        ChildMaven.Run again = ChildMaven.mvn(project, args);
        assertThat(again.exit()).as(again.output()).isNotZero();
        assertThat(again.output()).contains("REPRODUCED STALE_ACK_REJECTED").contains("relaycheck replay: ");
    }

    @Test
    void aJUnitFailuresReplayLineRunsTheSameScheduleAgainFromTheProjectDirectory() {
        ChildMaven.Run first = ChildMaven.mvn(project, List.of("-o", "test", "-Dtest=UnfencedShopRelayTest"));
        assertThat(first.exit()).as(first.output()).isNotZero();
        Matcher replay = Pattern.compile("replay: (mvn test -Dtest=UnfencedShopRelayTest#theUnfencedShopRelayRejectsStaleAcks "
                + "-Drelaycheck\\.seed=(-?\\d+))\\n").matcher(first.output());
        assertThat(replay.find()).as(first.output()).isTrue();
        String violation = violationLine(first.output());

        List<String> words = shellWords(replay.group(1));
        List<String> args = new ArrayList<>(List.of("-o"));
        args.addAll(words.subList(1, words.size())); // the line without its "mvn"
        args.add("-Drelaycheck.property.seeds=0"); // the line's seed and no other: the seed alone must reproduce it
        ChildMaven.Run again = ChildMaven.mvn(project, args);
        assertThat(again.exit()).as(again.output()).isNotZero();
        assertThat(violationLine(again.output())).isEqualTo(violation);
        assertThat(again.output()).contains("-Drelaycheck.seed=" + replay.group(2) + "\n");
    }

    private static String violationLine(String output) {
        Matcher m = Pattern.compile("VIOLATION STALE_ACK_REJECTED in scenario .*").matcher(output);
        assertThat(m.find()).as(output).isTrue();
        return m.group();
    }

    /** Words as a POSIX shell splits them (the quoting relaycheck's lines use: '...' and '\'' inside). */
    static List<String> shellWords(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean quoted = false;
        boolean any = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
                any = true;
            } else if (c == '\\' && !quoted && i + 1 < line.length()) {
                w.append(line.charAt(++i));
                any = true;
            } else if (c == ' ' && !quoted) {
                if (any) {
                    words.add(w.toString());
                    w.setLength(0);
                    any = false;
                }
            } else {
                w.append(c);
                any = true;
            }
        }
        if (any) {
            words.add(w.toString());
        }
        return words;
    }
}
