package dev.relaycheck.junit;

import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.testsupport.OverloadLogics;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ModelChecker} on logics from a jar compiled here, each overriding one form of one decision alone with
 * a mistake: the check fails on the invariant the mistake breaks, whichever form it is.
 */
class OverloadsModelCheckerTest {
    @TempDir
    static Path dir;
    private static URLClassLoader loader;

    @BeforeAll
    static void compile() throws Exception {
        loader = new URLClassLoader(new URL[]{OverloadLogics.jar(dir).toUri().toURL()}, OverloadsModelCheckerTest.class.getClassLoader());
    }

    private static RelayLogic load(OverloadLogics.Case c) throws Exception {
        return (RelayLogic) loader.loadClass(c.className()).getDeclaredConstructor().newInstance();
    }

    static List<OverloadLogics.Case> failing() {
        return OverloadLogics.cases().stream().filter(c -> c.breaks() != null).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failing")
    void eachFormOverriddenAloneFailsOnItsMistake(OverloadLogics.Case c) throws Exception {
        ModelCheckResult result = ModelChecker.of(load(c)).scenarios(c.scenario()).reportName("overloads-" + c.id()).check();
        assertThat(result.passed()).as(c.form()).isFalse();
        assertThat(result.results()).singleElement().satisfies(r -> {
            assertThat(r.verdictLine()).as(c.form()).isEqualTo("VIOLATION " + c.breaks());
            assertThat(r.engine()).isEqualTo("packed");
        });
        result.assertViolates(c.breaks());
    }

    @Test
    void theNewestFormsOnlyPass() throws Exception {
        OverloadLogics.Case newest = OverloadLogics.cases().stream().filter(c -> c.breaks() == null).findFirst().orElseThrow();
        ModelCheckResult result = ModelChecker.of(load(newest)).scenarios("event-61-lost-ack", "aggregate-order", "double-claim")
                .reportName("overloads-newest").check();
        result.assertPassed();
        assertThat(result.results()).allSatisfy(r -> assertThat(r.engine()).isEqualTo("packed"));
    }
}
