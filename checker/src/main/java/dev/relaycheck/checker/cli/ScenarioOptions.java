package dev.relaycheck.checker.cli;

import dev.relaycheck.model.Scenario;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;

/** {@code -s NAME|FILE} (repeatable), and the flags that override a field of every chosen scenario. */
final class ScenarioOptions {
    @Option(names = {"-s", "--scenario"}, paramLabel = "NAME|FILE",
            description = "shipped scenario (see 'scenarios') or a scenario file (see 'scenarios --help'); repeatable")
    List<String> names = new ArrayList<>();

    @Mixin
    ScenarioOverrides overrides = new ScenarioOverrides();

    List<Scenario> resolve(List<Scenario> defaults) {
        List<Scenario> chosen = names.isEmpty() ? defaults : names.stream().map(ScenarioFiles::resolve).toList();
        return chosen.stream().map(overrides::apply).toList();
    }
}
