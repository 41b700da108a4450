package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.logic.LogicLoader;
import dev.relaycheck.model.RelayLogic;
import picocli.CommandLine.Option;

/** {@code --logic} and {@code --classpath}: which logic to check. */
final class LogicOptions {
    @Option(names = "--logic", paramLabel = "ID|CLASS",
            description = "catalogue id (see 'variants') or a class implementing dev.relaycheck.model.RelayLogic; default: correct")
    String logic = "correct";

    @Option(names = "--classpath", paramLabel = "JAR[:DIR...]", description = "where to load a --logic class from")
    String classpath;

    RelayLogic load() {
        return LogicLoader.load(logic, classpath);
    }

    boolean given() {
        return !logic.equals("correct") || classpath != null;
    }
}
