package dev.relaycheck.checker.packed;

import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import org.junit.jupiter.params.provider.Arguments;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * How much of the catalogue the agreement tests run. Every logic against every scenario is thousands of cases; by
 * default a case runs when its logic is the first (the correct one) or its logic and scenario lie on every
 * {@link #EVERY}th diagonal of the table, so each logic still meets scenarios of every kind and each scenario logics
 * of every kind. {@code -Drelaycheck.long=true} runs every case.
 */
final class Sample {
    static final boolean LONG = Boolean.getBoolean("relaycheck.long");
    static final int EVERY = 4;

    private Sample() {
    }

    /** Whether the case of the {@code logic}th logic on the {@code scenario}th scenario runs. */
    static boolean takes(int logic, int scenario) {
        return LONG || logic == 0 || (logic + scenario) % EVERY == 0;
    }

    /** Whether the {@code logic}th logic of a list runs, where each runs on every scenario. */
    static boolean takes(int logic) {
        return takes(logic, 0);
    }

    /** The cases of {@code logics} against {@code scenarios} that run, each (logic, scenario), logic by logic. */
    static Stream<Arguments> cases(List<RelayLogic> logics, List<Scenario> scenarios) {
        List<Arguments> out = new ArrayList<>();
        for (int i = 0; i < logics.size(); i++) {
            for (int j = 0; j < scenarios.size(); j++) {
                if (takes(i, j)) {
                    out.add(Arguments.of(logics.get(i), scenarios.get(j)));
                }
            }
        }
        return out.stream();
    }

    /** The same on the default scenarios but mixed-big, whose slow readable search one test of its own runs. */
    static Stream<Arguments> exhaustiveCases(List<RelayLogic> logics) {
        return cases(logics, ReferenceScenarios.defaults()).filter(a -> !((Scenario) a.get()[1]).name().equals("mixed-big"));
    }
}
