package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.UsageException;
import dev.relaycheck.checker.harness.UserClasses;
import picocli.CommandLine.Option;

/** {@code --logic CLASS}, {@code --store CLASS}, {@code --classpath JAR}: the user's classes for the harnesses. */
final class UserClassOptions {
    @Option(names = "--logic", paramLabel = "CLASS",
            description = "your dev.relaycheck.model.RelayLogic, run inside the shipped thread-safe store")
    String logic;

    @Option(names = "--store", paramLabel = "CLASS",
            description = "your dev.relaycheck.model.store.RelayStore (with --logic: your store running your logic)")
    String store;

    @Option(names = "--classpath", paramLabel = "JAR[:DIR...]", description = "where to load them from")
    String classpath;

    /** The classes, loaded once here so a mistake is one usage line; at least one of --logic and --store. */
    UserClasses resolve() {
        UserClasses user = new UserClasses(logic, store, classpath);
        if (!user.given()) {
            throw new UsageException("name your classes: --logic CLASS and/or --store CLASS, with --classpath JAR");
        }
        user.load();
        return user;
    }
}
