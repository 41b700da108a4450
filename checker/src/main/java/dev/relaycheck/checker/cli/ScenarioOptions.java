package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.UsageException;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.Scenario;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;

/** {@code --scenario NAME} (repeatable). */
final class ScenarioOptions {
    @Option(names = {"-s", "--scenario"}, paramLabel = "NAME", description = "reference scenario (repeatable; see 'scenarios')")
    List<String> names = new ArrayList<>();

    List<Scenario> resolve(List<Scenario> defaults) {
        if (names.isEmpty()) {
            return defaults;
        }
        List<Scenario> out = new ArrayList<>();
        for (String n : names) {
            out.add(ReferenceScenarios.byName(n).orElseThrow(() -> new UsageException(
                    "unknown scenario '" + n + "'; known: " + ReferenceScenarios.all().stream().map(Scenario::name).toList())));
        }
        return out;
    }
}
