package dev.relaycheck.model;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What {@code -s} names: a shipped scenario, or a scenario file ({@link ScenarioText}'s form). A shipped name
 * wins over a file of the same name in the working directory ({@code ./mixed} names the file).
 */
public final class ScenarioFiles {
    private ScenarioFiles() {
    }

    /** A name that is neither a shipped scenario nor a readable scenario file: one line, for the user. */
    public static final class BadScenario extends IllegalArgumentException {
        BadScenario(String message) {
            super(message);
        }
    }

    /** The shipped scenario of that name, or the scenario file at that path; a bad one is a one-line BadScenario. */
    public static Scenario resolve(String nameOrPath) {
        Optional<Scenario> shipped = ReferenceScenarios.byName(nameOrPath);
        if (shipped.isPresent()) {
            return shipped.get();
        }
        Path file = Path.of(nameOrPath);
        if (!Files.isRegularFile(file)) {
            throw new BadScenario("unknown scenario '" + nameOrPath + "': neither a shipped one "
                    + ReferenceScenarios.all().stream().map(Scenario::name).toList() + " nor a scenario file");
        }
        return read(file);
    }

    /** Reads a scenario file; every problem is one line naming the file and the line. */
    public static Scenario read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new BadScenario("cannot read scenario file " + file + ": " + e.getMessage());
        }
        Scenario s;
        try {
            s = ScenarioText.parse(text, defaultName(file));
        } catch (ScenarioText.FormatException e) {
            throw new BadScenario(file + ":" + e.line() + ": " + e.getMessage());
        }
        Optional<Scenario> sameName = ReferenceScenarios.byName(s.name());
        if (sameName.isPresent() && !sameName.get().equals(s)) {
            throw new BadScenario(file + ":" + nameLine(text) + ": the name '" + s.name() + "' is a shipped scenario's, "
                    + "but this file differs from it; give it a name of its own ('name my-scenario'), so no report "
                    + "passes it off as the shipped one");
        }
        return s;
    }

    /** The file's name without its extension, with characters a scenario name may not hold replaced by '-'. */
    private static String defaultName(Path file) {
        String base = file.getFileName().toString();
        int dot = base.lastIndexOf('.');
        if (dot > 0) {
            base = base.substring(0, dot);
        }
        return base.replaceAll("[^A-Za-z0-9_.+=-]", "-");
    }

    private static int nameLine(String text) {
        String[] lines = text.split("\r?\n", -1);
        for (int n = 0; n < lines.length; n++) {
            String l = lines[n].strip();
            if (l.equals("name") || l.startsWith("name ")) {
                return n + 1;
            }
        }
        return 1;
    }
}
