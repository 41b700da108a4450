package dev.relaycheck.checker.cli;

import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.Scenario;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;

/** Lists the reference scenarios. */
@Command(name = "scenarios", description = "List the reference scenarios.")
final class ScenariosCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        for (Scenario s : ReferenceScenarios.all()) {
            out.printf("%-24s %s%n", s.name(), s.description());
            out.printf("%-24s pollers=%d events=%d batch=%d lease=%d ticks<=%d crashes<=%d lost-acks<=%d deliver-fails<=%d "
                            + "produce-fails<=%d%s requires %s%n", "", s.pollers().size(), s.events().size(), s.batch(),
                    s.leaseTicks(), s.maxTicks(), s.maxCrashes(), s.maxLostAcks(), s.maxDeliverFails(), s.maxProduceFails(),
                    s.producedDuringRun() ? " produced-during-run" : "", s.requiredWitnesses());
        }
    }
}
