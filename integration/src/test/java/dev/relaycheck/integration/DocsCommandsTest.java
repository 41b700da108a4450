package dev.relaycheck.integration;

import dev.relaycheck.integration.DocPages.Command;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
                "./relaycheck check --only model --budget quick # the model checker alone");
    }

    @Test
    void theReadmeGivesTheTestCommandCiRuns() {
        String ci = DocPages.read(ROOT.resolve(".ci/run")).lines().filter(l -> l.startsWith("mvn ")).reduce((a, b) -> b)
                .orElseThrow();
        assertThat(DocPages.read(ROOT.resolve("README.md"))).contains("`" + ci + "`");
    }

    /**
     * One dynamic test a command, in page order. Pages run two at a time (most commands keep one core busy), each
     * page's commands one after another in the page's folder; a test waits for its command's run. Which commands
     * run is decided before any runs: a line (with its exit) that an earlier page gives runs once, unless its page
     * chains commands (a replay, a merge, a diff or a redirection reads what an earlier command wrote).
     */
    @TestFactory
    Stream<DynamicContainer> everyCommandExitsAsItsPageSays() {
        DocCommands runner = new DocCommands(ROOT, Path.of("target", "docs-commands").toAbsolutePath());
        Map<String, Command> first = new HashMap<>();
        Map<Command, String> notRun = new HashMap<>();
        Map<String, List<Command>> byPage = new LinkedHashMap<>();
        for (Path page : docs.pages()) {
            String name = name(page);
            List<Command> commands = DocPages.commands(name, DocPages.read(page));
            byPage.put(name, commands);
            boolean chained = commands.stream().anyMatch(c -> !c.words().isEmpty()
                    && Set.of("replay", "merge", "diff").contains(c.words().get(0)) || c.text().contains(">"));
            for (Command c : commands) {
                Optional<String> skip = DocCommands.skipped(c);
                String key = c.exit() + " " + DocCommands.line(c);
                if (skip.isPresent()) {
                    notRun.put(c, skip.get());
                } else if (!chained && first.containsKey(key)) {
                    notRun.put(c, "runs as " + first.get(key));
                } else {
                    first.putIfAbsent(key, c);
                }
            }
        }
        // every future exists before any page starts: the pool's threads only read the map
        Map<Command, CompletableFuture<DocCommands.Result>> runs = new HashMap<>();
        byPage.values().forEach(commands -> commands.stream().filter(c -> !notRun.containsKey(c))
                .forEach(c -> runs.put(c, new CompletableFuture<>())));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        byPage.forEach((name, commands) -> {
            List<Command> toRun = commands.stream().filter(c -> !notRun.containsKey(c)).toList();
            if (!toRun.isEmpty()) {
                pool.execute(() -> {
                    Path folder = runner.folder(name);
                    for (Command c : toRun) { // a failed run does not stop the page's later commands
                        try {
                            runs.get(c).complete(runner.run(folder, c));
                        } catch (RuntimeException | Error e) {
                            runs.get(c).completeExceptionally(e);
                        }
                    }
                });
            }
        });
        pool.shutdown();
        return byPage.entrySet().stream().map(e -> DynamicContainer.dynamicContainer(e.getKey(), e.getValue().stream()
                .map(c -> DynamicTest.dynamicTest("line " + c.line() + ": " + c.text(), () -> {
                    Assumptions.assumeFalse(notRun.containsKey(c), () -> notRun.get(c));
                    DocCommands.Result r = runs.get(c).get();
                    assertThat(r.exit()).as("%s\nran: %s\n%s", c, r.ran(), tail(r.output())).isEqualTo(c.exit());
                }))));
    }

    static String name(Path page) {
        return ROOT.relativize(page).toString();
    }

    private static String tail(String output) {
        String[] lines = output.split("\n");
        return String.join("\n", java.util.Arrays.copyOfRange(lines, Math.max(0, lines.length - 30), lines.length));
    }
}
