package dev.relaycheck.checker.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user's own logic, compiled outside relaycheck into its own folder, checked with --logic and --classpath
 * without rebuilding relaycheck.
 */
class UserLogicTest {

    @TempDir
    Path dir;

    /** Compiles one class against the model on this JVM's class path; returns the output folder. */
    private Path compile(String className, String source) throws Exception {
        Path src = dir.resolve("src/" + className.replace('.', '/') + ".java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, source);
        Path out = dir.resolve("classes");
        Files.createDirectories(out);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int rc = javac.run(null, null, errors, "-d", out.toString(), "-cp", System.getProperty("java.class.path"),
                src.toString());
        assertThat(rc).as("javac: %s", errors).isZero();
        return out;
    }

    private static CliTest.Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = RelaycheckCli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new CliTest.Run(exit, out.toString(), err.toString());
    }

    @Test
    void aUsersOwnLogicIsLoadedFromTheClasspathAndItsBugIsFound() throws Exception {
        // acks while the row is still leased to anyone: checks the owner's existence, not the token
        Path classes = compile("com.acme.OwnerFencedRelay", """
                package com.acme;
                import dev.relaycheck.model.*;
                public final class OwnerFencedRelay extends CorrectRelayLogic {
                    @Override public String id() { return "acme-owner-fenced"; }
                    @Override public String description() { return "acks any leased row, whoever holds it"; }
                    @Override public boolean acceptsAck(OutboxRow row, long token) { return row.isPending() && row.hasLease(); }
                }
                """);
        CliTest.Run r = cli("explore", "--logic", "com.acme.OwnerFencedRelay", "--classpath", classes.toString(),
                "-s", "stale-ack-after-expiry", "--results", dir.resolve("results").toString());
        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        assertThat(r.out()).contains("VIOLATION STALE_ACK_REJECTED in scenario stale-ack-after-expiry with logic acme-owner-fenced");
        assertThat(r.out()).as("a user's logic runs on the packed engine, through its tables").contains("engine packed");

        CliTest.Run readable = cli("explore", "--logic", "com.acme.OwnerFencedRelay", "--classpath", classes.toString(),
                "-s", "stale-ack-after-expiry", "--engine", "readable", "--results", dir.resolve("readable").toString());
        assertThat(readable.exit()).as(readable.err()).isEqualTo(1);
        // the whole space but what lies past a violation: a search goes on past one to report every invariant broken
        assertThat(readable.out()).as("the readable model, the definition, finds the same").contains("engine readable")
                .contains("266 distinct states, 575 transitions, depth 12");
        assertThat(r.out()).contains("266 distinct states, 575 transitions, depth 12");

        CliTest.Run replay = cli("replay", dir.resolve("results/failures/acme-owner-fenced--stale-ack-after-expiry--STALE_ACK_REJECTED.replay")
                .toString(), "--classpath", classes.toString());
        assertThat(replay.exit()).as(replay.err()).isEqualTo(1);
        assertThat(replay.out()).contains("REPRODUCED STALE_ACK_REJECTED");
    }

    @Test
    void aClassThatIsNotARelayLogicIsRefusedWithOneLine() throws Exception {
        Path classes = compile("com.acme.NotALogic", "package com.acme; public class NotALogic { }");
        CliTest.Run r = cli("explore", "--logic", "com.acme.NotALogic", "--classpath", classes.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().trim()).isEqualTo("relaycheck: com.acme.NotALogic does not implement dev.relaycheck.model.RelayLogic");
    }
}
