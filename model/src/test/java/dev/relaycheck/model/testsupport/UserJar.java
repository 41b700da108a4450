package dev.relaycheck.model.testsupport;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * A user's classes as tests need them: compiled outside the project, against the test JVM's class path (relaycheck
 * as installed), into a jar of their own. Shared by the modules' tests through the model's test jar, so the
 * checker's CLI tests and the harness tests build a user's jar the same way.
 */
public final class UserJar {
    private UserJar() {
    }

    /**
     * Compiles {@code sources} (class name to source text) into {@code dir/name-classes} and packs them into
     * {@code dir/name.jar}, entries in name order; returns the jar. A compile error fails the test with javac's output.
     */
    public static Path compile(Path dir, String name, Map<String, String> sources) {
        try {
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
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
