package dev.relaycheck.model;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The one class loader for a user's {@code --classpath}: the logic of explore, random, check and replay, the
 * adapter of the SQL checks, the logic and store the harnesses race. It delegates to relaycheck's own loader
 * first, so the user's classes see the same {@code RelayLogic}, {@code RelayStore} and {@code RelayAdapter}
 * types relaycheck calls them through; and it keeps the class path as the user typed it, so a replay line can
 * repeat it.
 */
public final class UserClassLoader extends URLClassLoader {
    private final String classpath;
    private final List<Path> entries;

    private UserClassLoader(List<Path> entries, String classpath, ClassLoader parent) {
        super(urls(entries), parent);
        this.classpath = classpath;
        this.entries = List.copyOf(entries);
    }

    /**
     * A loader over {@code classpath} (entries separated by the platform's path separator) below {@code parent};
     * an entry that does not exist, or a class path without entries, is an IllegalArgumentException with one line.
     */
    public static UserClassLoader of(String classpath, ClassLoader parent) {
        List<Path> entries = new ArrayList<>();
        for (String part : (classpath == null ? "" : classpath).split(File.pathSeparator)) {
            if (part.isBlank()) {
                continue;
            }
            Path p = Path.of(part).toAbsolutePath().normalize();
            if (!Files.exists(p)) {
                throw new IllegalArgumentException("class path entry does not exist: " + part);
            }
            entries.add(p);
        }
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("the class path is empty");
        }
        return new UserClassLoader(entries, classpath, parent);
    }

    /** The user's classes over {@code classpath}, or {@code parent} itself when none was given. */
    public static ClassLoader orParent(String classpath, ClassLoader parent) {
        return classpath == null || classpath.isBlank() ? parent : of(classpath, parent);
    }

    /**
     * {@code classpath} with every entry made absolute: for a JVM that runs in another folder (a harness JVM, the
     * crash-kill child) or a line printed to paste elsewhere.
     */
    public static String absolute(String classpath) {
        List<String> parts = new ArrayList<>();
        for (String part : classpath.split(File.pathSeparator)) {
            if (!part.isBlank()) {
                parts.add(Path.of(part).toAbsolutePath().normalize().toString());
            }
        }
        return String.join(File.pathSeparator, parts);
    }

    /** The class path as the user gave it. */
    public String classpath() {
        return classpath;
    }

    /** Its entries, absolute and normalized, in the order given. */
    public List<Path> entries() {
        return entries;
    }

    /** The loader of {@code type} when it is a user's class. */
    public static Optional<UserClassLoader> of(Class<?> type) {
        return type.getClassLoader() instanceof UserClassLoader u ? Optional.of(u) : Optional.empty();
    }

    private static URL[] urls(List<Path> entries) {
        List<URL> urls = new ArrayList<>();
        for (Path p : entries) {
            try {
                urls.add(p.toUri().toURL());
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException("bad class path entry " + p);
            }
        }
        return urls.toArray(URL[]::new);
    }
}
