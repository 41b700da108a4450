package dev.relaycheck.checker;

import dev.relaycheck.model.CheckedLogic;
import dev.relaycheck.model.LogicCatalogue;
import dev.relaycheck.model.RelayLogic;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds the logic a user names: a catalogue id, or a class on {@code --classpath} that implements RelayLogic,
 * which comes wrapped in the contract check ({@link CheckedLogic}).
 */
public final class LogicLoader {
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
        ClassLoader loader = classLoader(classpath);
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
        try {
            // checked once for the whole run, so a question one scenario asked and another asks again is compared
            return CheckedLogic.of((RelayLogic) type.getDeclaredConstructor().newInstance());
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new UsageException("cannot instantiate " + logic + " (it needs a public no-argument constructor that succeeds): "
                    + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()));
        }
    }

    private static ClassLoader classLoader(String classpath) {
        ClassLoader parent = LogicLoader.class.getClassLoader();
        if (classpath == null || classpath.isBlank()) {
            return parent;
        }
        List<URL> urls = new ArrayList<>();
        for (String part : classpath.split(File.pathSeparator)) {
            File f = new File(part);
            if (!f.exists()) {
                throw new UsageException("--classpath entry does not exist: " + part);
            }
            try {
                urls.add(f.toURI().toURL());
            } catch (MalformedURLException e) {
                throw new UsageException("bad --classpath entry " + part);
            }
        }
        return new URLClassLoader(urls.toArray(URL[]::new), parent);
    }
}
