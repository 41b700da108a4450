package dev.relaycheck.checker.cli;

import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.catalogue.LogicCatalogue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;

/** Lists the correct logic and the catalogue of broken variants. */
@Command(name = "variants", description = "List the relay logics relaycheck ships.")
final class VariantsCommand implements Runnable {
    @Option(names = "--markdown", description = "print the catalogue as docs/catalogue.md holds it "
            + "(each mistake, the invariant it breaks, its SQL version)")
    boolean markdown;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        if (markdown) {
            out.print(CatalogueMarkdown.section());
            return;
        }
        int n = 0;
        for (RelayLogic l : LogicCatalogue.all()) {
            out.printf("%-3s %-28s %-20s %s%n", n == 0 ? "" : Integer.toString(n), l.id(),
                    l.expectedViolation().map(Enum::name).orElse("(passes)"), l.description());
            n++;
        }
    }
}
