package dev.relaycheck.integration;

import dev.relaycheck.integration.DocPages.Command;
import dev.relaycheck.model.command.ShellWords;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Runs a page's {@code ./relaycheck} commands as a reader pastes them: each line in bash, in a folder of the page's
 * own that links every folder of the repository but results/ (so a command's results/ is its own, and the paths
 * the pages give, examples/shop-relay/target/classes, resolve), with {@code ./relaycheck} the launcher's java line
 * on the jar the build made. Long runs get a small budget appended; the few that take minutes, or need what only
 * the reader has, are skipped with the reason (the long ones run with -Drelaycheck.long=true, or -Drelaycheck.docs.long=true alone).
 */
final class DocCommands {
    static final boolean LONG = Boolean.getBoolean("relaycheck.long") || Boolean.getBoolean("relaycheck.docs.long");

    record Result(int exit, String output, String ran) {
    }

    private record Skip(Predicate<List<String>> applies, boolean always, String reason) {
    }

    /** Appended to a command whose words start with the key when the command does not give the option itself. */
    private record Budget(String command, List<String> options) {
    }

    private static final List<Skip> SKIPS = List.of(
            new Skip(w -> w.contains("--classpath") && w.get(w.indexOf("--classpath") + 1).startsWith("/tmp/"), true,
                    "needs the jar the page's jar command builds; UserStoreExampleTest runs these commands on a jar it builds"),
            new Skip(w -> w.stream().anyMatch(a -> a.startsWith("jdbc:postgresql:")), true,
                    "needs a PostgreSQL server of the reader's own"),
            new Skip(w -> w.stream().anyMatch(a -> a.contains("postgres")), false,
                    "starts an embedded PostgreSQL server; the jdbc and examples modules' tests run the checks on it"),
            new Skip(w -> w.get(0).equals("check") && !(w.contains("--only") && w.get(w.indexOf("--only") + 1).equals("model")
                    && !w.contains("--logic") && !w.contains("--results") && !w.contains("--baseline")), false,
                    "a check run of tens of seconds to minutes; the README's model check runs in the default set"),
            new Skip(w -> w.get(0).equals("check") && (w.contains("--results") || w.contains("--baseline")
                    || w.contains("--logic")), false, "a model check run like the README's, which runs in the default set"),
            new Skip(w -> w.get(0).equals("diff"), false, "compares the two check runs above it, which run only in the long set"),
            new Skip(w -> w.get(0).equals("sql") && w.size() > 1 && Set.of("all", "race", "crash").contains(w.get(1)), false,
                    "races real threads and kills child JVMs for tens of seconds; ShopRelayCheckTest and the jdbc tests run them"),
            new Skip(w -> Set.of("stress", "lincheck", "bench").contains(w.get(0)), false,
                    "jcstress, Lincheck and bench take minutes; their modules' tests and UserStoreExampleTest run them"));

    private static final List<Budget> BUDGETS = List.of(
            new Budget("code", List.of("--runs", "4")),
            new Budget("sql conformance", List.of("--seeds", "2", "--controls", "no")),
            new Budget("sql all", List.of("--seeds", "2", "--rounds", "1", "--controls", "no")),
            new Budget("sql race", List.of("--rounds", "1", "--controls", "no")),
            new Budget("sql crash", List.of("--rounds", "1", "--controls", "no")),
            new Budget("check", List.of("--budget", "quick")));

    private final Path root;
    private final Path work;

    DocCommands(Path root, Path work) {
        this.root = root;
        this.work = work;
    }

    /** Why this command is not run here, or empty when it is. */
    static Optional<String> skipped(Command c) {
        List<String> w = c.words();
        if (w.isEmpty()) {
            return Optional.empty();
        }
        return SKIPS.stream().filter(s -> s.applies().test(w) && (s.always() || !LONG)).map(Skip::reason).findFirst();
    }

    /** A fresh folder for one page's commands, run in order (a later command may read what an earlier one wrote). */
    Path folder(String page) {
        Path dir = work.resolve(page.replace('/', '_'));
        try {
            ChildMaven.delete(dir);
            Files.createDirectories(dir);
            try (Stream<Path> top = Files.list(root)) {
                for (Path p : top.toList()) {
                    String name = p.getFileName().toString();
                    if (!Set.of("results", "target", ".git", "relaycheck").contains(name)) {
                        Files.createSymbolicLink(dir.resolve(name), p);
                    }
                }
            }
            Path launcher = dir.resolve("relaycheck");
            Files.writeString(launcher, "#!/usr/bin/env bash\nexec '" + javaBin() + "' -Drelaycheck.home='" + root
                    + "' -Drelaycheck.command=./relaycheck -jar '" + root.resolve("checker/target/relaycheck.jar")
                    + "' \"$@\"\n");
            launcher.toFile().setExecutable(true);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The line as run: the page's, its comment dropped, with the budget options it does not give appended. */
    static String line(Command c) {
        String text = c.text().replaceFirst("\\s+#.*$", "");
        List<String> w = c.words();
        List<String> extra = new ArrayList<>();
        for (Budget b : BUDGETS) {
            if (String.join(" ", w).startsWith(b.command() + " ") || String.join(" ", w).equals(b.command())) {
                for (int i = 0; i < b.options().size(); i += 2) {
                    if (!w.contains(b.options().get(i))) {
                        extra.addAll(b.options().subList(i, i + 2));
                    }
                }
                break;
            }
        }
        if (extra.isEmpty()) {
            return text;
        }
        if (ShellWords.split(text).stream().anyMatch(x -> Set.of("|", ">", "&&", ";").contains(x))) {
            throw new IllegalStateException(c + ": a budget cannot be appended to a pipeline; skip it with a reason");
        }
        return text + " " + String.join(" ", extra);
    }

    Result run(Path dir, Command c) {
        String line = line(c);
        ChildMaven.Run r = ChildMaven.pasted(dir, line);
        return new Result(r.exit(), r.output(), line);
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
