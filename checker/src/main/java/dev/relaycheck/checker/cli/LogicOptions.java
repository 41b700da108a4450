package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.UsageException;
import dev.relaycheck.checker.logic.LogicLoader;
import dev.relaycheck.model.DecisionWatch;
import dev.relaycheck.model.RelayLogic;
import picocli.CommandLine.Option;

/** {@code --logic} and {@code --classpath}: which logic to check. */
final class LogicOptions {
    @Option(names = "--logic", paramLabel = "ID|CLASS",
            description = "catalogue id (see 'variants') or a class implementing dev.relaycheck.model.RelayLogic; default: correct")
    String logic = "correct";

    @Option(names = "--classpath", paramLabel = "JAR[:DIR...]", description = "where to load a --logic class from")
    String classpath;

    @Option(names = "--decision-timeout", paramLabel = "SECONDS",
            description = "a decision of the logic under test that does not return within this long is a LOGIC-ERROR "
                    + "(default: ${DEFAULT-VALUE}; the one time-based limit in a verdict)", defaultValue = "10")
    String decisionTimeout = "10";

    RelayLogic load() {
        applyDecisionTimeout(decisionTimeout);
        return LogicLoader.load(logic, classpath);
    }

    /** Sets {@link DecisionWatch#limit()} from an option's text, or says why it cannot. */
    static void applyDecisionTimeout(String seconds) {
        try {
            DecisionWatch.setLimit(DecisionWatch.parseSeconds(seconds));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--decision-timeout: " + e.getMessage());
        }
    }

    boolean given() {
        return !logic.equals("correct") || classpath != null;
    }
}
