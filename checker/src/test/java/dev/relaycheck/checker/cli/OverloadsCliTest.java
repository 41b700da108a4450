package dev.relaycheck.checker.cli;

import dev.relaycheck.model.testsupport.OverloadLogics;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whichever form of a decision a user's logic overrides, the default engine checks that form: each logic in a
 * jar compiled here overrides one form alone, with a mistake, and {@code explore} in a child JVM reports the
 * invariant the mistake breaks, on the packed engine (which asked the reference's answers instead, and said
 * OK, when the form overridden was not the one it asked).
 */
class OverloadsCliTest {
    @TempDir
    static Path dir;

    @BeforeAll
    static void compile() {
        OverloadLogics.jar(dir);
    }

    @Test
    void eachFormOverriddenAloneIsTheOneChecked() throws Exception {
        List<OverloadLogics.Case> failing = OverloadLogics.cases().stream().filter(c -> c.breaks() != null).toList();
        ExecutorService children = Executors.newFixedThreadPool(3); // a child JVM mostly starts: three overlap on two cores
        try {
            List<Future<ChildCli.Run>> runs = new ArrayList<>();
            for (OverloadLogics.Case c : failing) {
                runs.add(children.submit(() -> ChildCli.run(dir, "explore", "--logic", c.className(), "--classpath",
                        "overloads.jar", "-s", c.scenario())));
            }
            SoftAssertions softly = new SoftAssertions();
            for (int i = 0; i < failing.size(); i++) {
                OverloadLogics.Case c = failing.get(i);
                ChildCli.Run run = runs.get(i).get();
                softly.assertThat(run.exit()).as(c.form() + "\n" + run).isEqualTo(ExitCodes.VIOLATION);
                softly.assertThat(run.out()).as(c.form()).contains("VIOLATION " + c.breaks() + " in scenario " + c.scenario()
                        + " with logic " + c.id()).contains("engine packed)");
            }
            softly.assertAll();
        } finally {
            children.shutdown();
        }
    }

    @Test
    void aLogicWithOnlyTheNewestFormsPassesAsTheReferenceDoesWithoutAnOlderFormAsked() {
        ChildCli.Run mine = ChildCli.run(dir, "explore", "--logic", "users.NewestFormsOnly", "--classpath", "overloads.jar",
                "-s", "event-61-lost-ack", "-s", "aggregate-order", "-s", "mixed");
        ChildCli.Run reference = ChildCli.run(dir, "explore", "-s", "event-61-lost-ack", "-s", "aggregate-order", "-s", "mixed");
        assertThat(mine.exit()).as(mine.toString()).isEqualTo(ExitCodes.CLEAN);
        assertThat(mine.out()).contains("engine packed)").doesNotContain("LOGIC-ERROR");
        assertThat(counts(mine.out())).isEqualTo(counts(reference.out()));
    }

    /** The count lines of an explore, without the logic's name. */
    private static List<String> counts(String out) {
        return out.lines().filter(l -> l.startsWith("bfs ")).map(l -> l.replaceFirst("^bfs \\S+ ", "")).toList();
    }
}
