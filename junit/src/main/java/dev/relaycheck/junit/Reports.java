package dev.relaycheck.junit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where relaycheck-junit writes its reports: {@code target/relaycheck/} of the module under test (Surefire
 * runs tests in the module's directory), or the directory {@value #DIR_PROPERTY} names.
 */
final class Reports {
    static final String DIR_PROPERTY = "relaycheck.reports";

    private Reports() {
    }

    static Path dir() {
        return Path.of(System.getProperty(DIR_PROPERTY, "target/relaycheck"));
    }

    /** Writes {@code text} to {@code dir()/sub/name} and returns the path written. */
    static Path write(String sub, String name, String text) {
        Path file = dir().resolve(sub).resolve(name.replaceAll("[^A-Za-z0-9_.+=-]", "-"));
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the relaycheck report " + file, e);
        }
        return file;
    }
}
