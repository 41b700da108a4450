package dev.relaycheck.model.store;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.UserClassLoader;
import dev.relaycheck.model.catalogue.LogicCatalogue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a user points the harnesses at: their {@link RelayLogic} (run inside the shipped store), their own
 * {@link RelayStore}, or both, loaded from their jar. The jcstress harnesses run in forked JVMs, so the choice
 * travels as system properties ({@link #LOGIC}, {@link #STORE}, {@link #CLASSPATH}, {@link #PROOF}) and every
 * fork loads the classes itself with a {@link UserClassLoader} over the user's class path.
 *
 * <p>Nothing falls back: a class that cannot be loaded, or that was found somewhere other than the user's
 * class path (a class of the same name already on relaycheck's own class path wins parent-first delegation),
 * is an error with one clear line. Each JVM that loaded the user's classes writes a proof file naming each
 * class and the jar it came from into the {@link #PROOF} folder, so the parent can check that the forks really
 * ran the user's code.
 *
 * @param logic       the logic: the user's, or the correct one when only a store was given
 * @param logicOrigin where the logic class came from, e.g. {@code com.acme.MyLogic from /x/my-relay.jar}
 * @param storeClass  the user's store class, or empty for the shipped store
 * @param storeOrigin where the store class came from, or empty
 * @param classpath   the class path they were loaded from, as the user gave it
 */
public record UserTarget(RelayLogic logic, String logicOrigin, Optional<Class<? extends RelayStore>> storeClass,
                         Optional<String> storeOrigin, String classpath) {

    /** System property: the user's logic class (optional when a store is given). */
    public static final String LOGIC = "relaycheck.user.logic";
    /** System property: the user's store class (optional: absent means the shipped store). */
    public static final String STORE = "relaycheck.user.store";
    /** System property: where to load them from, entries separated by the platform's path separator. */
    public static final String CLASSPATH = "relaycheck.user.classpath";
    /** System property: a folder where each JVM that loaded the user's classes writes its proof file. */
    public static final String PROOF = "relaycheck.user.proof";
    /** How a proof file's name starts; the rest is the JVM's process id. */
    public static final String PROOF_PREFIX = "loaded-by-pid-";

    private static volatile UserTarget fromProperties;

    /** Loads the named classes; throws IllegalArgumentException with one line when anything is wrong. */
    public static UserTarget load(String logicClass, String storeClass, String classpath) {
        if (blank(logicClass) && blank(storeClass)) {
            throw new IllegalArgumentException("name a logic class, a store class, or both");
        }
        if (blank(classpath)) {
            throw new IllegalArgumentException("a user's class needs the class path it is loaded from (--classpath JAR)");
        }
        UserClassLoader loader = UserClassLoader.of(classpath, UserTarget.class.getClassLoader());
        List<Path> entries = loader.entries();
        RelayLogic logic = LogicCatalogue.correct();
        String logicOrigin = "the shipped correct logic";
        if (!blank(logicClass)) {
            Class<?> type = find(logicClass, loader, entries, RelayLogic.class);
            logic = (RelayLogic) instantiate(type, new Class<?>[0]);
            logicOrigin = origin(type);
        }
        if (blank(storeClass)) {
            return new UserTarget(logic, logicOrigin, Optional.empty(), Optional.empty(), classpath);
        }
        Class<? extends RelayStore> store = find(storeClass, loader, entries, RelayStore.class).asSubclass(RelayStore.class);
        if (constructor(store).isEmpty()) {
            throw new IllegalArgumentException(storeClass + " needs a public constructor (RelayLogic, List<Event>, "
                    + "Map<String, Integer>, int) or (List<Event>, Map<String, Integer>, int)");
        }
        return new UserTarget(logic, logicOrigin, Optional.of(store), Optional.of(origin(store)), classpath);
    }

    /**
     * The target the system properties name, loaded once per JVM (a harness builds its state millions of
     * times). The first load writes this JVM's proof file. Throws IllegalStateException, loudly, when the
     * properties are missing or name something that cannot be loaded: a harness must never fall back.
     */
    public static UserTarget fromSystemProperties() {
        UserTarget t = fromProperties;
        if (t != null) {
            return t;
        }
        synchronized (UserTarget.class) {
            if (fromProperties == null) {
                String logic = System.getProperty(LOGIC, "");
                String store = System.getProperty(STORE, "");
                if (blank(logic) && blank(store)) {
                    throw new IllegalStateException("no user target: -D" + LOGIC + " and -D" + STORE + " are both unset"
                            + " (this harness runs only from 'relaycheck stress --logic/--store')");
                }
                try {
                    fromProperties = load(logic, store, System.getProperty(CLASSPATH, ""));
                } catch (IllegalArgumentException e) {
                    throw new IllegalStateException("cannot load the user's classes in this JVM: " + e.getMessage(), e);
                }
                writeProof(fromProperties);
            }
            return fromProperties;
        }
    }

    /** A fresh store over already produced events: the user's, or the shipped one running the logic. */
    public RelayStore newStore(List<Event> events, Map<String, Integer> stock, int leaseTicks) {
        if (storeClass.isEmpty()) {
            return RelayStores.shipped(logic, events, stock, leaseTicks);
        }
        Constructor<? extends RelayStore> c = constructor(storeClass.get()).orElseThrow();
        Object[] args = c.getParameterCount() == 4
                ? new Object[]{logic, List.copyOf(events), Map.copyOf(stock), leaseTicks}
                : new Object[]{List.copyOf(events), Map.copyOf(stock), leaseTicks};
        try {
            return c.newInstance(args);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(storeClass.get().getName() + "'s constructor threw " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create " + storeClass.get().getName() + ": " + e, e);
        }
    }

    /** True when the logic is the user's (not the shipped correct one a store-only target runs with). */
    public boolean userLogic() {
        return !logicOrigin.startsWith("the shipped");
    }

    /**
     * The id reports use for this target: the logic's id, the store's simple class name, or both
     * ({@code acme-relay}, {@code store:CachedStore}, {@code acme-relay+store:CachedStore}).
     */
    public String id() {
        String store = storeClass.map(c -> "store:" + c.getSimpleName()).orElse("");
        if (!userLogic()) {
            return store;
        }
        return store.isEmpty() ? logic.id() : logic.id() + "+" + store;
    }

    /** The command-line options that name this target again: {@code --logic X --store Y --classpath CP}. */
    public String rerunArgs() {
        StringBuilder b = new StringBuilder();
        if (userLogic()) {
            b.append("--logic ").append(logic.getClass().getName()).append(' ');
        }
        storeClass.ifPresent(c -> b.append("--store ").append(c.getName()).append(' '));
        return b.append("--classpath ").append(classpath).toString();
    }

    /** Whether the user's store can produce the model's state (the shipped store always can). */
    public boolean hasSnapshot() {
        return newStore(List.of(new Event("E1", "SKU-1", 1, 1)), Map.of("SKU-1", 1), 1).snapshot().isPresent();
    }

    /**
     * One line: what runs, e.g. {@code logic com.acme.L from /x/a.jar in the shipped store} or
     * {@code store com.acme.S from /x/s.jar (running the shipped correct logic)}.
     */
    public String describe() {
        if (storeOrigin.isEmpty()) {
            return "logic " + logicOrigin + " in the shipped store";
        }
        return userLogic() ? "logic " + logicOrigin + " in store " + storeOrigin.get()
                : "store " + storeOrigin.get() + " (running the shipped correct logic)";
    }

    /** The lines of this JVM's proof file: one per user class, {@code logic|store CLASS from JAR}. */
    public List<String> proofLines() {
        List<String> lines = new ArrayList<>();
        if (userLogic()) {
            lines.add("logic " + logicOrigin);
        }
        storeOrigin.ifPresent(s -> lines.add("store " + s));
        return lines;
    }

    private static void writeProof(UserTarget t) {
        String dir = System.getProperty(PROOF, "");
        if (blank(dir)) {
            return;
        }
        Path file = Path.of(dir).resolve(PROOF_PREFIX + ProcessHandle.current().pid() + ".txt");
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, t.proofLines(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the proof file " + file, e);
        }
    }

    /** {@code com.acme.X from /abs/path/x.jar}: the class and the class path entry it was really loaded from. */
    public static String origin(Class<?> type) {
        return type.getName() + " from " + location(type).map(Path::toString).orElse("(unknown location)");
    }

    private static Optional<Path> location(Class<?> type) {
        CodeSource source = type.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Path.of(source.getLocation().toURI()).toAbsolutePath().normalize());
        } catch (URISyntaxException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static <T> Class<?> find(String name, ClassLoader loader, List<Path> entries, Class<T> kind) {
        Class<?> type;
        try {
            type = Class.forName(name, false, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("class " + name + " not found on " + entries);
        } catch (LinkageError e) {
            throw new IllegalArgumentException("cannot load class " + name + ": " + e);
        }
        Optional<Path> from = location(type);
        if (from.isEmpty() || !entries.contains(from.get())) {
            throw new IllegalArgumentException("class " + name + " was loaded from " + from.map(Path::toString).orElse("an unknown place")
                    + ", not from " + entries + ": a class of that name is already on relaycheck's own class path; rename yours");
        }
        if (!kind.isAssignableFrom(type)) {
            throw new IllegalArgumentException(name + " does not implement " + kind.getName());
        }
        return type;
    }

    private static Object instantiate(Class<?> type, Class<?>[] params) {
        try {
            return type.getDeclaredConstructor(params).newInstance();
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException("cannot instantiate " + type.getName() + ": its constructor threw " + e.getCause());
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            throw new IllegalArgumentException("cannot instantiate " + type.getName()
                    + " (it needs a public no-argument constructor): " + e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Optional<Constructor<? extends RelayStore>> constructor(Class<? extends RelayStore> type) {
        for (Class<?>[] params : List.of(new Class<?>[]{RelayLogic.class, List.class, Map.class, int.class},
                new Class<?>[]{List.class, Map.class, int.class})) {
            try {
                return Optional.of(type.getConstructor(params));
            } catch (NoSuchMethodException e) {
                // try the next shape
            }
        }
        return Optional.empty();
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
