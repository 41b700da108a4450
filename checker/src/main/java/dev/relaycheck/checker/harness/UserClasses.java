package dev.relaycheck.checker.harness;

import dev.relaycheck.checker.UsageException;
import dev.relaycheck.model.UserClassLoader;
import dev.relaycheck.model.catalogue.LogicCatalogue;
import dev.relaycheck.model.store.UserTarget;

import java.util.ArrayList;
import java.util.List;

/**
 * The user's classes for the harnesses (jcstress, Lincheck): a logic class run in the shipped store, a store
 * class, or both, and the class path they come from. They are loaded here first, so bad input is one usage
 * line before any harness JVM starts; the harness JVMs load them again themselves and prove it.
 *
 * @param logic     a RelayLogic class name, or blank
 * @param store     a RelayStore class name, or blank
 * @param classpath where to load them from
 */
public record UserClasses(String logic, String store, String classpath) {

    public UserClasses {
        logic = logic == null ? "" : logic.strip();
        store = store == null ? "" : store.strip();
        classpath = classpath == null ? "" : classpath.strip();
    }

    public static final UserClasses NONE = new UserClasses("", "", "");

    /**
     * From the {@code check} command's options: a catalogue id (or the default {@code correct}) is not a user
     * class, so only a class name counts as the user's logic.
     */
    public static UserClasses of(String logicOption, String store, String classpath) {
        boolean catalogue = logicOption == null || LogicCatalogue.byId(logicOption).isPresent();
        return new UserClasses(catalogue ? "" : logicOption, store, classpath);
    }

    public boolean given() {
        return !logic.isEmpty() || !store.isEmpty();
    }

    /** Loads the classes in this JVM; a problem is a usage error with one line. */
    public UserTarget load() {
        try {
            return UserTarget.load(logic, store, classpath);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /**
     * The options the harness entry points take: {@code --logic X --store Y --classpath CP}, the class path made
     * absolute: the harness JVMs run in their report folders, where a path relative to the user's folder means
     * nothing.
     */
    public List<String> args() {
        List<String> out = new ArrayList<>();
        if (!logic.isEmpty()) {
            out.addAll(List.of("--logic", logic));
        }
        if (!store.isEmpty()) {
            out.addAll(List.of("--store", store));
        }
        if (given()) {
            out.addAll(List.of("--classpath", UserClassLoader.absolute(classpath)));
        }
        return out;
    }
}
