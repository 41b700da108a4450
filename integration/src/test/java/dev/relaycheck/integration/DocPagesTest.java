package dev.relaycheck.integration;

import dev.relaycheck.integration.DocPages.Command;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The docs' checker catches a page that promises what is not there: it can fail, and says where. */
class DocPagesTest {
    private static final Path ROOT = DocsCommandsTest.ROOT;
    private final DocPages docs = new DocPages(ROOT, Set.of("MyRelayLogic"), Set.of());

    private static final String WRONG = """
            # A wrong page

            Run `./relaycheck explore --max-state 10` or pass `--no-such-flag`; `RelayAdapter` is real,
            `NoSuchRelayAdapter` is not, nor is `Invariants.noSuchCheck`, nor
            `dev.relaycheck.model.NoSuchModel`, nor the file `examples/no-such-example/README.md`.
            `MyRelayLogic` is the reader's own. See [the missing page](no-such-page.md) and [a real one](../README.md).

            ```
            ./relaycheck explore --logic ack-ignores-token -s stale-ack-after-expiry
            ./relaycheck explore --logic ack-ignores-token -s stale-ack-after-expiry   # exit 1
            ./relaycheck explore --budget quick
            ./relaycheck check --only model \\
                --budjet quick                                                     # exit 4
            ```
            """;

    @Test
    void aWrongPageIsReportedNameByName() {
        List<String> problems = docs.problems("wrong.md", ROOT.resolve("docs"), WRONG);
        assertThat(problems).containsExactlyInAnyOrder(
                "wrong.md:11: ./relaycheck explore --budget quick: Unknown options: '--budget', 'quick'",
                "wrong.md:12: ./relaycheck check --only model --budjet quick # exit 4: Unknown options: '--budjet', 'quick'",
                "wrong.md: `./relaycheck explore --max-state 10`: 'relaycheck explore' has no option --max-state",
                "wrong.md: `--no-such-flag`: no relaycheck command has the option --no-such-flag",
                "wrong.md: `NoSuchRelayAdapter`: no class NoSuchRelayAdapter in the repository",
                "wrong.md: `Invariants.noSuchCheck`: Invariants has no member noSuchCheck",
                "wrong.md: `dev.relaycheck.model.NoSuchModel`: no class dev.relaycheck.model.NoSuchModel in the repository",
                "wrong.md: `examples/no-such-example/README.md`: no file examples/no-such-example/README.md in the repository",
                "wrong.md: the link no-such-page.md leads to no file");
    }

    @Test
    void commandsCarryTheExitTheirPagePromises() {
        List<Command> commands = DocPages.commands("wrong.md", WRONG);
        assertThat(commands).extracting(Command::line).containsExactly(9, 10, 11, 12);
        assertThat(commands).extracting(Command::exit).containsExactly(0, 1, 0, 4);
        assertThat(commands.get(3).words()).containsExactly("check", "--only", "model", "--budjet", "quick");
    }

    @Test
    void aCommandThatExitsOtherwiseThanItsPageSaysIsCaught() throws Exception {
        DocCommands runner = new DocCommands(ROOT, Path.of("target", "doc-pages-test").toAbsolutePath());
        Path folder = runner.folder("wrong.md");
        List<Command> commands = DocPages.commands("wrong.md", WRONG);

        DocCommands.Result unmarked = runner.run(folder, commands.get(0));
        assertThat(unmarked.exit()).as("the page promises 0 here; the search finds the violation").isEqualTo(1)
                .isNotEqualTo(commands.get(0).exit());
        DocCommands.Result marked = runner.run(folder, commands.get(1));
        assertThat(marked.exit()).isEqualTo(commands.get(1).exit());
        assertThat(marked.output()).contains("VIOLATION STALE_ACK_REJECTED");
        assertThat(Files.exists(folder.resolve("results/failures"))).as("the results are the folder's own").isTrue();
        assertThat(Files.isSymbolicLink(folder.resolve("results"))).isFalse();
    }

    @Test
    void aLongCommandGetsItsBudgetAndAPipelineStaysAsWritten() {
        assertThat(DocCommands.line(new Command("p", 1, "./relaycheck code --relay X --classpath Y # exit 1", 1)))
                .isEqualTo("./relaycheck code --relay X --classpath Y --runs 4");
        assertThat(DocCommands.line(new Command("p", 1, "./relaycheck sql conformance --sql f.sql --seeds 9", 0)))
                .isEqualTo("./relaycheck sql conformance --sql f.sql --seeds 9 --controls no");
        assertThat(DocCommands.line(new Command("p", 1, "./relaycheck scenarios --show mixed > my.scenario", 0)))
                .isEqualTo("./relaycheck scenarios --show mixed > my.scenario");
        assertThat(DocCommands.skipped(new Command("p", 1, "./relaycheck sql race --db jdbc:postgresql://h/db", 0)))
                .hasValueSatisfying(why -> assertThat(why).contains("server of the reader's own"));
    }
}
