package dev.relaycheck.checker.logic;

import dev.relaycheck.checker.UsageException;
import dev.relaycheck.model.CheckedLogic;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.UserClassLoader;
import dev.relaycheck.model.catalogue.LogicCatalogue;

import java.util.Optional;

/**
 * Finds the logic a user names: a catalogue id, or a class on {@code --classpath} that implements RelayLogic,
 * which comes wrapped in the contract check ({@link CheckedLogic}).
 */
public final class LogicLoader {
    private static final java.util.regex.Pattern VALID_ID = java.util.regex.Pattern.compile("[A-Za-z0-9._-]+");

    private LogicLoader() {
    }

    public static RelayLogic load(String logic, String classpath) {
        Optional<RelayLogic> known = LogicCatalogue.byId(logic);
        if (known.isPresent()) {
            return known.get();
        }
        if (!logic.contains(".")) {
            throw new UsageException("unknown logic '" + logic + "': give a catalogue id (see 'relaycheck variants') "
                    + "or a fully qualified class name with --classpath");
        }
        ClassLoader loader;
        try {
            loader = UserClassLoader.orParent(classpath, LogicLoader.class.getClassLoader());
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        Class<?> type;
        try {
            type = Class.forName(logic, true, loader);
        } catch (ClassNotFoundException e) {
            throw new UsageException("logic class " + logic + " not found " + (classpath == null ? "(no --classpath given)"
                    : "on " + classpath));
        } catch (LinkageError e) {
            throw new UsageException("cannot load logic class " + logic + ": " + e.getMessage());
        }
        if (!RelayLogic.class.isAssignableFrom(type)) {
            throw new UsageException(logic + " does not implement " + RelayLogic.class.getName());
        }
        RelayLogic instance;
        try {
            instance = (RelayLogic) type.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new UsageException("cannot instantiate " + logic + " (it needs a public no-argument constructor that succeeds): "
                    + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()));
        }
        requireOwnId(instance);
        // checked once for the whole run, so a question one scenario asked and another asks again is compared
        return CheckedLogic.of(instance);
    }

    /**
     * A user's logic must name itself, with an id no shipped logic has: reports, record file names and replay
     * go by id, so a user class calling itself {@code correct} would be reported, recorded and replayed as
     * the shipped correct logic.
     */
    private static void requireOwnId(RelayLogic logic) {
        String name = logic.getClass().getName();
        String id;
        try {
            id = logic.id();
        } catch (RuntimeException e) {
            throw new UsageException("logic class " + name + ": id() threw " + e);
        }
        if (id == null || id.isBlank()) {
            throw new UsageException("logic class " + name + " returns " + (id == null ? "null" : "a blank string")
                    + " from id(); give it a name of its own, e.g. \"my-relay\"");
        }
        if (!VALID_ID.matcher(id).matches()) {
            throw new UsageException("logic class " + name + " has id '" + id + "'; an id is letters, digits, '.', '_' "
                    + "and '-' (it names record files and report rows)");
        }
        Optional<RelayLogic> shipped = LogicCatalogue.byId(id);
        if (shipped.isPresent() && shipped.get().getClass() != logic.getClass()) {
            throw new UsageException("logic class " + name + " has id '" + id + "', which is the id of a shipped logic "
                    + "(see 'relaycheck variants'); give it an id of its own");
        }
    }

    /** Whether a record naming this id and class means a shipped logic (not a user class that took its id). */
    public static boolean isShipped(String id, String className) {
        return LogicCatalogue.byId(id).map(l -> className.isEmpty() || l.getClass().getName().equals(className)).orElse(false);
    }

    /**
     * The --classpath a user's logic was loaded with, as the user gave it; for a user's logic that came from the
     * application class path instead (a JUnit test in the user's own build: relaycheck-junit), where its class
     * was loaded from; empty for a shipped logic.
     */
    public static Optional<String> classpathOf(RelayLogic logic) {
        Class<?> type = CheckedLogic.unwrap(logic).getClass();
        Optional<String> given = UserClassLoader.of(type).map(UserClassLoader::classpath);
        if (given.isPresent()) {
            return given;
        }
        // a team's logic on its test class path (the JUnit API): the folder or jar it was loaded from
        return type.getName().startsWith("dev.relaycheck.") ? Optional.empty() : codeSource(type);
    }

    private static Optional<String> codeSource(Class<?> type) {
        java.security.CodeSource src = type.getProtectionDomain().getCodeSource();
        if (src == null || src.getLocation() == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(java.nio.file.Path.of(src.getLocation().toURI()).toString());
        } catch (java.net.URISyntaxException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
