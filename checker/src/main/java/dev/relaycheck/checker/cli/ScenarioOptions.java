package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.UsageException;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.ScenarioFiles;
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
        List<Scenario> chosen = names.isEmpty() ? defaults : names.stream().map(ScenarioOptions::scenario).toList();
        return chosen.stream().map(overrides::apply).toList();
    }

    /** What {@code -s} names (a shipped scenario or a scenario file); a bad one is a usage error. */
    static Scenario scenario(String nameOrPath) {
        try {
            return ScenarioFiles.resolve(nameOrPath);
        } catch (ScenarioFiles.BadScenario e) {
            throw new UsageException(e.getMessage());
        }
    }
}
