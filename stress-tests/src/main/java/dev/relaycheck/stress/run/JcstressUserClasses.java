package dev.relaycheck.stress.run;

import dev.relaycheck.model.UserClassLoader;
import dev.relaycheck.model.store.UserTarget;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The user's classes the curriculum runs instead of the shipped targets: a logic (run in the shipped store), a
 * store, or both, and the class path they are loaded from. They reach the forked worker JVMs as system
 * properties ({@link UserTarget}), and each fork that loaded them writes a proof file into {@link #proofDir}.
 *
 * @param logic     the user's RelayLogic class, or blank
 * @param store     the user's RelayStore class, or blank
 * @param classpath where both are loaded from
 */
public record JcstressUserClasses(String logic, String store, String classpath) {
    public static final JcstressUserClasses NONE = new JcstressUserClasses("", "", "");
    /** The harnesses' nested class that runs the user's target. */
    public static final String NESTED_CLASS = "User";

    public JcstressUserClasses {
        logic = logic == null ? "" : logic.strip();
        store = store == null ? "" : store.strip();
        classpath = classpath == null ? "" : classpath.strip();
    }

    /**
     * The harnesses whose outcome a store without a snapshot can still fill in (the grants alone show the hazard);
     * every other harness reads the store's state in its arbiter.
     */
    public static final List<String> OUTCOME_ONLY_HARNESSES = List.of("Lease_01_DoubleClaim");

    public boolean given() {
        return !logic.isEmpty() || !store.isEmpty();
    }

    /** Loads the classes here, in the parent, so bad input is one usage line before any fork starts. */
    public UserTarget load() {
        try {
            return UserTarget.load(logic, store, classpath);
        } catch (IllegalArgumentException e) {
            throw new JcstressUsageException(e.getMessage());
        }
    }

    /** Where the forks write their proof files: a folder of the report directory, emptied before each run. */
    public static Path proofDir(Path out) {
        return out.resolve("user-proof");
    }

    /** The {@code -D} options every fork gets, one option per element (never split on spaces). */
    public List<String> forkProperties(Path out) {
        List<String> props = new ArrayList<>();
        props.add("-D" + UserTarget.LOGIC + "=" + logic);
        props.add("-D" + UserTarget.STORE + "=" + store);
        props.add("-D" + UserTarget.CLASSPATH + "=" + UserClassLoader.absolute(classpath));
        props.add("-D" + UserTarget.PROOF + "=" + proofDir(out).toAbsolutePath());
        return props;
    }

    /**
     * The regex jcstress gets: without user classes the curriculum minus the user's nested classes (they cannot
     * run without them); with them, only the user's nested classes among the tests the user's regex picks, and
     * the producer harness only when there is a user logic (a store has no produce operation).
     */
    public String testRegex(String tests) {
        String user = "\\." + NESTED_CLASS + "$";
        if (!given()) {
            return "^(?!.*" + user + ")(?=.*(?:" + tests + "))";
        }
        String noProducer = logic.isEmpty() ? "(?!.*Produce_01)" : "";
        String outcomeOnly = outcomeOnly() ? "(?=.*(?:" + String.join("|", OUTCOME_ONLY_HARNESSES) + ")\\.)" : "";
        return "^" + noProducer + outcomeOnly + "(?=.*(?:" + tests + ")).*" + user;
    }

    /** True for a user's store that cannot produce a snapshot: only the outcome-only harnesses can judge it. */
    public boolean outcomeOnly() {
        return !store.isEmpty() && !load().hasSnapshot();
    }
}
