package dev.relaycheck.stress.user;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Child JVMs that run the harnesses on a user's classes, and those classes' sources; the jar they go into is built
 * by the model's shared test support ({@link dev.relaycheck.model.testsupport.UserJar}).
 */
final class UserJars {
    private UserJars() {
    }

    record Run(int exit, String output) {
    }

    /** Runs {@code mainClass args} in a child JVM on this JVM's class path, in {@code workDir}; output merged. */
    static Run java(Path workDir, String mainClass, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(List.of(args));
        Path log = workDir.resolve("child.log");
        Process p = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        if (!p.waitFor(15, TimeUnit.MINUTES)) { // a safety net against a hung child, never a verdict
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("child JVM still running after 15 minutes: " + command);
        }
        return new Run(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    static final String OWNER_FENCED_LOGIC = """
            package com.acme;
            import dev.relaycheck.model.*;
            /** Our UPDATE checks that the row is leased, not that it is leased to the token we hold. */
            public final class OwnerFencedRelay extends CorrectRelayLogic {
                @Override public String id() { return "acme-owner-fenced"; }
                @Override public String description() { return "acks any leased row, whoever holds it"; }
                @Override public boolean acceptsAck(OutboxRow row, long token) { return row.isPending() && row.hasLease(); }
            }
            """;

    static final String GOOD_LOGIC = """
            package com.acme;
            import dev.relaycheck.model.*;
            public final class GoodRelay extends CorrectRelayLogic {
                @Override public String id() { return "acme-good"; }
                @Override public String description() { return "the correct decisions, as acme writes them"; }
            }
            """;
}
