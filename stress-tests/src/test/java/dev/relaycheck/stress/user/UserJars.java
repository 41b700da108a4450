package dev.relaycheck.stress.user;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/** A user's classes compiled outside the project into their own jar, and child JVMs that run the harnesses on them. */
final class UserJars {
    private UserJars() {
    }

    /** Compiles {@code sources} (class name to source) against this JVM's class path into {@code dir/name.jar}. */
    static Path compile(Path dir, String name, Map<String, String> sources) throws IOException {
        Path src = dir.resolve(name + "-src");
        Path classes = dir.resolve(name + "-classes");
        Files.createDirectories(classes);
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-cp", System.getProperty("java.class.path")));
        for (var e : new TreeMap<>(sources).entrySet()) {
            Path file = src.resolve(e.getKey().replace('.', '/') + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, e.getValue(), StandardCharsets.UTF_8);
            args.add(file.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        if (javac.run(null, null, errors, args.toArray(String[]::new)) != 0) {
            throw new AssertionError("javac failed:\n" + errors.toString(StandardCharsets.UTF_8));
        }
        Path jar = dir.resolve(name + ".jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar)); Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                out.write(Files.readAllBytes(f));
                out.closeEntry();
            }
        }
        return jar;
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
