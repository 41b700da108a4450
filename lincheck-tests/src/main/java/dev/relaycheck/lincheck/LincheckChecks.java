package dev.relaycheck.lincheck;

import dev.relaycheck.model.store.UserTarget;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the Lincheck checks with the budget from system properties (small by default), writes
 * results/lincheck/summary.tsv and one report per failing run, and exits 0 when the correct store passes
 * and every broken target is caught, 1 otherwise, 2 on bad input, 4 when nothing failed but a store that must pass
 * was reported hung on every try. With {@code --logic CLASS} and/or {@code --store CLASS} and {@code --classpath JAR}
 * every check runs on the user's target instead (their logic in the shipped store, or their own store).
 *
 * <pre>
 * mvn -q -pl lincheck-tests compile exec:exec                                   # every check
 * mvn -q -pl lincheck-tests compile exec:exec -Dlincheck.only=relay-protocol    # one check
 * mvn -q -pl lincheck-tests compile exec:exec -Dlincheck.only=linearizability-model-checking/ack-ignores-token
 * </pre>
 * Options: {@code --only CHECK[/TARGET][,...]} (same as {@code -Dlincheck.only}), {@code --list}.
 */
public final class LincheckChecks {
    /** Exit status when nothing failed but a store that must pass was reported hung on every try. */
    static final int INCONCLUSIVE = 4;

    private LincheckChecks() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        String only = System.getProperty("lincheck.only", "");
        boolean list = false;
        String logic = "";
        String store = "";
        String classpath = "";
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--list" -> list = true;
                case "--only", "--logic", "--store", "--classpath" -> {
                    if (i + 1 == args.length) {
                        return bad(err, arg + " needs a value");
                    }
                    String value = args[++i];
                    switch (arg) {
                        case "--only" -> only = value;
                        case "--logic" -> logic = value;
                        case "--store" -> store = value;
                        default -> classpath = value;
                    }
                }
                default -> {
                    return bad(err, "unknown argument '" + arg + "' (use --only CHECK[/TARGET], --list, "
                            + "--logic CLASS, --store CLASS, --classpath JAR)");
                }
            }
        }
        List<Checks.Planned> plan;
        LincheckBudget budget;
        UserTarget user = null;
        try {
            if (!logic.isBlank() || !store.isBlank()) {
                user = UserTarget.load(logic, store, classpath);
                plan = Checks.selectForUser(only, LincheckTargets.user(user));
            } else if (!classpath.isBlank()) {
                return bad(err, "--classpath needs --logic CLASS or --store CLASS");
            } else {
                plan = Checks.select(only);
            }
            budget = LincheckBudget.fromSystemProperties();
        } catch (IllegalArgumentException e) {
            return bad(err, e.getMessage());
        }
        if (list) {
            plan.forEach(p -> out.println(p.name() + "\t" + p.target().expect()));
            return 0;
        }
        CheckRunner runner = new CheckRunner(budget, ResultFiles.locate());
        out.println("Lincheck checks, " + plan.size() + " runs; budget: " + budget);
        if (user != null) {
            out.println("user target " + user.id() + ": " + user.describe());
        }
        List<LincheckResult> results = new ArrayList<>();
        for (Checks.Planned p : plan) {
            java.util.Optional<String> cannot = p.check().cannotRun(p.target());
            if (cannot.isPresent()) {
                LincheckResult skipped = LincheckResult.skipped(p.check(), p.target(), cannot.get());
                results.add(skipped);
                out.printf("%-7s %-52s %s%n", skipped.verdict(), p.name(), skipped.detail());
                continue;
            }
            CheckRunner.Ran ran = runner.run(p);
            results.add(ran.result());
            out.printf("%-7s %-52s %6.1f s  %s%n", ran.result().verdict(), p.name(), ran.millis() / 1000.0, ran.result().detail());
            if (ran.report() != null) {
                out.println("        trace: " + ran.report() + "\n        rerun: "
                        + ResultFiles.rerunCommand(p.check().id(), p.target(), budget));
            }
        }
        if (user == null) {
            LincheckTargets.NOT_COVERED.forEach((id, why) -> out.println("not a target: " + id + ": " + why));
        }
        if (only.isBlank()) {
            // a check that could not run is said on the console, not written as a row: it is neither pass nor failure
            out.println("summary: " + runner.files().writeSummary(results.stream().filter(r -> !r.verdict().equals("SKIPPED")).toList()));
        } else {
            out.println("summary.tsv not rewritten: only part of the checks ran");
        }
        long bad = results.stream().filter(r -> !r.ok() && !r.inconclusive()).count();
        long inconclusive = results.stream().filter(LincheckResult::inconclusive).count();
        if (bad > 0) {
            out.println("NOT OK: " + bad + " of " + results.size() + " runs are FAILED or ESCAPED");
            return 1;
        }
        if (inconclusive > 0) {
            out.println("INCONCLUSIVE: " + inconclusive + " of " + results.size() + " runs were reported hung on every try"
                    + " (Lincheck's hang detection is time-based); nothing failed");
            return INCONCLUSIVE;
        }
        out.println(user != null ? "OK: " + user.id() + " passed every check that ran"
                : "OK: the correct store passed and every broken target was caught");
        return 0;
    }

    private static int bad(PrintStream err, String message) {
        err.println("lincheck-checks: " + message);
        return 2;
    }
}
