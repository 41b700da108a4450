package dev.relaycheck.integration.docs;

import dev.relaycheck.integration.docs.DocPages.Command;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The commands of README.md and docs/ are a contract: each runs and exits as its page says, and every class, file,
 * option and link a page names exists.
 */
class DocsCommandsTest {
    static final Path ROOT = Path.of(System.getProperty("relaycheck.root", "..")).toAbsolutePath().normalize();

    /**
     * Classes a page names that are neither relaycheck's nor the JDK's: the reader's own, in examples of code they
     * write.
     */
    static final Set<String> EXTERNAL = Set.of("MyRelayLogic", "MyUnfencedLogic", "MyRelayAdapter", "MyRelayCheck",
            "OrderOutboxRelayCheck", "OrderOutboxRelay");

    /** How the packed engine works: written on the engine's branch, linked from architecture and performance. */
    static final Set<String> LANDING = Set.of("docs/engine.md");

    private final DocPages docs = new DocPages(ROOT, EXTERNAL, LANDING);

    @Test
    void everyClassFileOptionAndLinkThePagesNameExists() {
        List<String> problems = new ArrayList<>();
        for (Path page : docs.pages()) {
            problems.addAll(docs.problems(name(page), page.getParent(), DocPages.read(page)));
        }
        assertThat(problems).as("names in README.md and docs/ that do not exist").isEmpty();
    }

    @Test
    void thePagesHoldCommands() {
        assertThat(docs.pages()).extracting(DocsCommandsTest::name).contains("README.md", "docs/relay-code.md",
                "docs/logic.md", "docs/cli.md", "docs/catalogue.md");
        List<Command> readme = DocPages.commands("README.md", DocPages.read(ROOT.resolve("README.md")));
        assertThat(readme).extracting(Command::text).contains("./relaycheck check # all checkers, default budget",
                "./relaycheck check --only model --budget quick # the model checker alone, in seconds");
    }

    @Test
    void theReadmeGivesTheTestCommandCiRuns() {
        String ci = DocPages.read(ROOT.resolve(".ci/run")).lines().filter(l -> l.startsWith("mvn ")).reduce((a, b) -> b)
                .orElseThrow();
        assertThat(DocPages.read(ROOT.resolve("README.md"))).contains("`" + ci + "`");
    }

    @TestFactory
    Stream<DynamicContainer> everyCommandExitsAsItsPageSays() {
        DocCommands runner = new DocCommands(ROOT, Path.of("target", "docs-commands").toAbsolutePath());
        Map<String, Command> passed = new HashMap<>(); // a line and its exit, checked once for all the pages that give it
        return docs.pages().stream().map(page -> {
            String name = name(page);
            List<Command> commands = DocPages.commands(name, DocPages.read(page));
            Path[] dir = new Path[1];
            // a page whose commands read what earlier ones wrote runs every one of them in its own folder
            boolean chained = commands.stream().anyMatch(c -> !c.words().isEmpty()
                    && Set.of("replay", "merge", "diff").contains(c.words().get(0)) || c.text().contains(">"));
            return DynamicContainer.dynamicContainer(name, commands.stream().map(c -> DynamicTest.dynamicTest(
                    "line " + c.line() + ": " + c.text(), () -> {
                        Assumptions.assumeTrue(DocCommands.skipped(c).isEmpty(), () -> DocCommands.skipped(c).get());
                        String key = c.exit() + " " + DocCommands.line(c);
                        Assumptions.assumeFalse(!chained && passed.containsKey(key), () -> "ran as " + passed.get(key));
                        if (dir[0] == null) {
                            dir[0] = runner.folder(name);
                        }
                        DocCommands.Result r = runner.run(dir[0], c);
                        assertThat(r.exit()).as("%s\nran: %s\n%s", c, r.ran(), tail(r.output())).isEqualTo(c.exit());
                        passed.put(key, c);
                    })));
        });
    }

    static String name(Path page) {
        return ROOT.relativize(page).toString();
    }

    private static String tail(String output) {
        String[] lines = output.split("\n");
        return String.join("\n", java.util.Arrays.copyOfRange(lines, Math.max(0, lines.length - 30), lines.length));
    }
}
