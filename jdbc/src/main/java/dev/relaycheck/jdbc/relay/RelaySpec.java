package dev.relaycheck.jdbc.relay;

import dev.relaycheck.jdbc.adapter.ClockGuardedAdapter;
import dev.relaycheck.jdbc.adapter.OwnerFencedTokens;
import dev.relaycheck.jdbc.adapter.RelayAdapter;
import dev.relaycheck.jdbc.adapter.RelaySqlFile;
import dev.relaycheck.jdbc.adapter.SqlFileAdapter;
import dev.relaycheck.model.UserClassLoader;

import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How a relay under test is named on a command line: a shipped variant ({@code --target ID}), a relay file
 * ({@code --sql FILE}) or an adapter class ({@code --adapter CLASS --classpath CP}). The same arguments
 * start the crash-kill child and make the replay line.
 */
public sealed interface RelaySpec {

    /** The reference relay. */
    RelaySpec REFERENCE = new Shipped(SqlVariant.CORRECT, ClaimForm.SKIP_LOCKED);

    /**
     * The relay named by {@code --target ID [--claim-form F]}, {@code --sql FILE} or {@code --adapter CLASS
     * [--classpath CP]} (at most one of the three; none: the reference relay).
     */
    static RelaySpec of(String target, String claimForm, String sqlFile, String adapter, String classpath) {
        int given = (target != null ? 1 : 0) + (sqlFile != null ? 1 : 0) + (adapter != null ? 1 : 0);
        if (given > 1) {
            throw new IllegalArgumentException("give one relay: --target, --sql or --adapter");
        }
        if (classpath != null && adapter == null) {
            throw new IllegalArgumentException("--classpath needs --adapter CLASS");
        }
        if (claimForm != null && sqlFile == null && adapter == null && target == null) {
            target = SqlVariant.CORRECT.id();
        }
        if (claimForm != null && target == null) {
            throw new IllegalArgumentException("--claim-form applies to a shipped relay (--target) only");
        }
        if (sqlFile != null) {
            return new SqlFile(Path.of(sqlFile));
        }
        if (adapter != null) {
            return new AdapterClass(adapter, classpath);
        }
        if (target == null) {
            return REFERENCE;
        }
        String t = target;
        SqlVariant v = SqlVariant.byId(t).orElseThrow(() -> new IllegalArgumentException("unknown target '" + t
                + "' (correct or a catalogue id, see 'relaycheck variants')"));
        ClaimForm form = claimForm == null ? ClaimForm.SKIP_LOCKED : ClaimForm.byId(claimForm).orElseThrow(() ->
                new IllegalArgumentException("unknown --claim-form '" + claimForm + "' (skip-locked or conditional-update)"));
        return new Shipped(v, form);
    }

    /** Parses the arguments {@link #args()} writes. */
    static RelaySpec parse(List<String> args) {
        java.util.Map<String, String> o = new java.util.TreeMap<>();
        for (int i = 0; i < args.size(); i += 2) {
            String k = args.get(i);
            if (!List.of("--target", "--claim-form", "--sql", "--adapter", "--classpath").contains(k) || i + 1 >= args.size()) {
                throw new IllegalArgumentException("bad relay arguments " + args);
            }
            o.put(k, args.get(i + 1));
        }
        return of(o.get("--target"), o.get("--claim-form"), o.get("--sql"), o.get("--adapter"), o.get("--classpath"));
    }

    /** Command-line arguments that name this relay again. */
    List<String> args();

    /** Loads it; a bad name or file is an IllegalArgumentException with a one-line message. */
    RelayUnderTest resolve();

    /** The reference relay or one of its broken variants, shipped with relaycheck. */
    record Shipped(SqlVariant variant, ClaimForm form) implements RelaySpec {
        @Override
        public List<String> args() {
            return form == ClaimForm.SKIP_LOCKED ? List.of("--target", variant.id())
                    : List.of("--target", variant.id(), "--claim-form", form.id());
        }

        @Override
        public RelayUnderTest resolve() {
            RelaySqlFile f = variant.file(form);
            return new RelayUnderTest(this, variant.id(), variant.isCorrect(), variant.shape(), () -> new SqlFileAdapter(f));
        }
    }

    /** A relay file of named statements. */
    record SqlFile(Path file) implements RelaySpec {
        @Override
        public List<String> args() {
            return List.of("--sql", file.toAbsolutePath().normalize().toString());
        }

        @Override
        public RelayUnderTest resolve() {
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException("relay file " + file + " does not exist");
            }
            RelaySqlFile f = RelaySqlFile.read(file);
            return new RelayUnderTest(this, file.getFileName().toString(), true, SqlShape.CORRECT, () -> new SqlFileAdapter(f));
        }
    }

    /** A class implementing {@link RelayAdapter}, on a class path of jars and directories. */
    record AdapterClass(String className, String classpath) implements RelaySpec {
        @Override
        public List<String> args() {
            return classpath == null || classpath.isBlank() ? List.of("--adapter", className)
                    : List.of("--adapter", className, "--classpath", UserClassLoader.absolute(classpath));
        }

        @Override
        public RelayUnderTest resolve() {
            Constructor<? extends RelayAdapter> ctor = constructor();
            return new RelayUnderTest(this, className, true, SqlShape.CORRECT, () -> {
                try {
                    return new ClockGuardedAdapter(ctor.newInstance());
                } catch (ReflectiveOperationException e) {
                    Throwable cause = e.getCause() == null ? e : e.getCause();
                    throw new IllegalStateException("cannot instantiate " + className + ": " + cause, cause);
                }
            });
        }

        private Constructor<? extends RelayAdapter> constructor() {
            ClassLoader loader = UserClassLoader.orParent(classpath, RelaySpec.class.getClassLoader());
            Class<?> type;
            try {
                type = Class.forName(className, true, loader);
            } catch (ClassNotFoundException e) {
                throw new IllegalArgumentException("adapter class " + className + " not found "
                        + (classpath == null ? "(no --classpath given)" : "on " + classpath));
            } catch (LinkageError e) {
                throw new IllegalArgumentException("cannot load adapter class " + className + ": " + e);
            }
            if (!RelayAdapter.class.isAssignableFrom(type)) {
                throw new IllegalArgumentException(className + " does not implement " + RelayAdapter.class.getName());
            }
            if (Modifier.isAbstract(type.getModifiers())) {
                throw new IllegalArgumentException(className + " is abstract");
            }
            RelayAdapter.missing(type.asSubclass(RelayAdapter.class)).ifPresent(m -> {
                throw new IllegalArgumentException(m);
            });
            try {
                Constructor<? extends RelayAdapter> c = type.asSubclass(RelayAdapter.class).getConstructor();
                OwnerFencedTokens.around(c.newInstance()); // fail here, with one line, rather than in the middle of a check
                return c;
            } catch (NoSuchMethodException e) {
                throw new IllegalArgumentException(className + " needs a public no-argument constructor");
            } catch (IllegalArgumentException e) {
                throw e;
            } catch (ReflectiveOperationException | RuntimeException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                throw new IllegalArgumentException("cannot instantiate " + className + ": " + cause);
            }
        }
    }
}
