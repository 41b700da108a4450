package dev.relaycheck.checker.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.relaycheck.checker.cli.CliTest.cli;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code relaycheck sql} with arguments that are wrong or do not go together: one line, exit 2, nothing run. */
class SqlCommandTest {
    @Test
    void badArgumentsExit2WithOneLine() {
        for (List<String> args : List.of(List.of("bogus"), List.of("conformance", "--seeds", "x"), List.of("crash", "--rounds", "0"),
                List.of("race", "--what", "1"), List.of("conformance", "--seeds"),
                List.of("replay", "--target", "nope", "--scenario", "mixed", "--walk-seed", "1"),
                List.of("replay", "--target", "correct"), List.of("replay", "--target", "correct", "--cut", "nowhere"),
                List.of("crash", "--nth", "1"), List.of("race", "--race-seed", "1"),
                List.of("replay", "--target", "correct", "--race-seed", "1", "--cut", "after-claim"),
                List.of("replay", "--target", "correct", "--race-seed", "1", "--shared-database", "maybe"),
                List.of("conformance", "--controls", "maybe"), List.of("race", "--shard", "1/2"),
                List.of("conformance", "--db", "h2,postgres"), List.of("conformance", "--classpath", "x.jar"))) {
            List<String> line = new java.util.ArrayList<>(List.of("sql"));
            line.addAll(args);
            CliTest.Run r = cli(line.toArray(String[]::new));
            assertThat(r.exit()).as(String.join(" ", line) + ": " + r.err()).isEqualTo(2);
            assertThat(r.err().lines().count()).as(r.err()).isEqualTo(1);
            assertThat(r.err()).startsWith("relaycheck").doesNotContain("Exception");
            assertThat(r.out()).isEmpty();
        }
    }

    /** The options relaycheck checks itself say so in its words, after the command's name. */
    @Test
    void combinationsAreNamedInOneSqlLine() {
        assertThat(cli("sql", "bogus").err()).isEqualTo("relaycheck sql: unknown command 'bogus' (all, conformance, race, crash, "
                + "replay, template)\n");
        assertThat(cli("sql", "replay", "--target", "correct").err()).startsWith("relaycheck sql: replay needs --scenario and --walk-seed");
        assertThat(cli("sql", "crash", "--nth", "1").err())
                .isEqualTo("relaycheck sql: --cut, --nth and --batch belong to 'replay' (one crash-kill round)\n");
        assertThat(cli("sql", "conformance", "--controls", "maybe").err()).isEqualTo("relaycheck sql: --controls takes yes or no, got 'maybe'\n");
        assertThat(cli("sql", "conformance", "--db", "h2,postgres").err())
                .isEqualTo("relaycheck sql: sql runs on one --db at a time, got 'h2,postgres'\n");
    }
}
