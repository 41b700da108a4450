package dev.relaycheck.checker.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pages written from the code, docs/catalogue.md and docs/cli.md, say what the code says: a catalogue entry, a
 * command or an option added, removed or reworded without the page rewritten fails here.
 */
class GeneratedDocsTest {
    private static final Path DOCS = Path.of("..", "docs");

    /** Where the page's generated section differs from {@code generated}: the first differing line, or empty. */
    static Optional<String> disagreement(String page, String generated) {
        int begin = page.indexOf(CatalogueMarkdown.BEGIN);
        int end = page.indexOf(CatalogueMarkdown.END);
        if (begin < 0 || end < begin) {
            return Optional.of("the page has no generated section between its markers");
        }
        return firstDifference(page.substring(begin, end + CatalogueMarkdown.END.length()) + "\n", generated);
    }

    static Optional<String> firstDifference(String page, String generated) {
        String[] a = page.split("\n", -1);
        String[] b = generated.split("\n", -1);
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            String x = i < a.length ? a[i] : "(end of page)";
            String y = i < b.length ? b[i] : "(end of generated text)";
            if (!x.equals(y)) {
                return Optional.of("line " + (i + 1) + " of the section: page has\n  " + x + "\nthe code says\n  " + y);
            }
        }
        return Optional.empty();
    }

    @Test
    void theCataloguePageHoldsWhatVariantsMarkdownPrints() throws IOException {
        String page = Files.readString(DOCS.resolve("catalogue.md"));
        assertThat(disagreement(page, CatalogueMarkdown.section()))
                .as("docs/catalogue.md is out of date: rewrite its generated section with ./relaycheck variants --markdown")
                .isEmpty();
    }

    @Test
    void theCliPageHoldsWhatEveryCommandsHelpSays() throws IOException {
        assertThat(firstDifference(Files.readString(DOCS.resolve("cli.md")), CliReference.page()))
                .as("docs/cli.md is out of date: java -cp checker/target/relaycheck.jar %s > docs/cli.md",
                        CliReference.class.getName())
                .isEmpty();
    }

    @Test
    void aPageThatDisagreesWithTheCodeIsCaught() {
        String generated = CatalogueMarkdown.section();
        String stale = "# page\n\n" + generated.replace("`STALE_ACK_REJECTED` |", "`NO_LOST_EVENT` |") + "\nmore prose\n";
        assertThat(disagreement(stale, generated)).get().asString().contains("NO_LOST_EVENT");
        assertThat(disagreement("# page without the markers\n", generated)).get().asString().contains("markers");
        assertThat(disagreement("# page\n\n" + generated + "\nmore prose\n", generated)).isEmpty();

        String cli = CliReference.page();
        assertThat(firstDifference(cli.replace("--max-states=N", "--max-state=N"), cli)).get().asString()
                .contains("--max-state=N");
    }

    @Test
    void variantsMarkdownPrintsTheSection() {
        java.io.StringWriter out = new java.io.StringWriter();
        int exit = RelaycheckCli.run(new String[] {"variants", "--markdown"}, new java.io.PrintWriter(out),
                new java.io.PrintWriter(new java.io.StringWriter()));
        assertThat(exit).isZero();
        assertThat(out.toString()).isEqualTo(CatalogueMarkdown.section());
    }
}
