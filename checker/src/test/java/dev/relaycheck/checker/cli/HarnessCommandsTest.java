package dev.relaycheck.checker.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code stress}, {@code lincheck} and {@code check --store} refuse bad user classes with one line and exit 2
 * before any harness JVM starts. (The harness runs themselves are exercised end to end by the example module,
 * which builds after the harness modules: examples/user-store.)
 */
class HarnessCommandsTest {

    @TempDir
    Path dir;

    @Test
    void badUserClassesAreOneUsageLine() {
        Path jar = ChildCli.compileJar(dir, "acme", Map.of(
                "com.acme.NotAStore", "package com.acme; public class NotAStore { }",
                "com.acme.GoodRelay", """
                        package com.acme;
                        public final class GoodRelay extends dev.relaycheck.model.CorrectRelayLogic {
                            @Override public String id() { return "acme-good"; }
                        }
                        """));
        assertUsage(ChildCli.run(dir, "stress"), "relaycheck: name your classes: --logic CLASS and/or --store CLASS");
        assertUsage(ChildCli.run(dir, "lincheck", "--logic", "com.acme.GoodRelay", "--classpath", dir.resolve("gone.jar").toString()),
                "relaycheck: class path entry does not exist: " + dir.resolve("gone.jar"));
        assertUsage(ChildCli.run(dir, "stress", "--store", "com.acme.NotAStore", "--classpath", jar.toString()),
                "relaycheck: com.acme.NotAStore does not implement dev.relaycheck.model.store.RelayStore");
        assertUsage(ChildCli.run(dir, "lincheck", "--store", "com.acme.Missing", "--classpath", jar.toString()),
                "relaycheck: class com.acme.Missing not found on [" + jar.toAbsolutePath().normalize() + "]");
        assertUsage(ChildCli.run(dir, "check", "--store", "com.acme.NotAStore", "--classpath", jar.toString(), "--only", "model",
                "-s", "event-61-lost-ack", "--results", dir.resolve("results").toString()),
                "relaycheck: com.acme.NotAStore does not implement dev.relaycheck.model.store.RelayStore");
        // relaycheck's own correct logic named as if it were the user's: the jar does not hold it, so it is refused
        assertUsage(ChildCli.run(dir, "stress", "--logic", "dev.relaycheck.model.CorrectRelayLogic", "--classpath", jar.toString()),
                "relaycheck: class dev.relaycheck.model.CorrectRelayLogic was loaded from");
    }

    private static void assertUsage(ChildCli.Run r, String firstWords) {
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err().strip()).as(r.toString()).startsWith(firstWords).doesNotContain("\n");
    }
}
