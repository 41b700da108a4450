package dev.relaycheck.lincheck;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the Lincheck checks with the budget from system properties (small by default), writes
 * results/lincheck/summary.tsv and one report per failing run, and exits 0 when the correct store passes
 * and every broken target is caught, 1 otherwise, 2 on bad input.
 *
 * <pre>
 * mvn -q -pl lincheck-tests compile exec:exec                                   # every check
 * mvn -q -pl lincheck-tests compile exec:exec -Dlincheck.only=relay-protocol    # one check
 * mvn -q -pl lincheck-tests compile exec:exec -Dlincheck.only=linearizability-model-checking/ack-ignores-token
 * </pre>
 * Options: {@code --only CHECK[/TARGET][,...]} (same as {@code -Dlincheck.only}), {@code --list}.
 */
public final class LincheckChecks {
    private LincheckChecks() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        String only = System.getProperty("lincheck.only", "");
        boolean list = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--list" -> list = true;
                case "--only" -> {
                    if (i + 1 == args.length) {
                        return bad(err, "--only needs CHECK or CHECK/TARGET");
                    }
                    only = args[++i];
                }
                default -> {
                    return bad(err, "unknown argument '" + args[i] + "' (use --only CHECK[/TARGET] or --list)");
                }
            }
        }
        List<Checks.Planned> plan;
        LincheckBudget budget;
        try {
            plan = Checks.select(only);
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
        List<CheckResult> results = new ArrayList<>();
        for (Checks.Planned p : plan) {
            CheckRunner.Ran ran = runner.run(p);
            results.add(ran.result());
            out.printf("%-7s %-52s %6.1f s  %s%n", ran.result().verdict(), p.name(), ran.millis() / 1000.0, ran.result().detail());
            if (ran.report() != null) {
                out.println("        trace: " + ran.report() + "\n        rerun: "
                        + ResultFiles.rerunCommand(p.check().id(), p.target().id(), budget));
            }
        }
        Targets.NOT_COVERED.forEach((id, why) -> out.println("not a target: " + id + ": " + why));
        if (only.isBlank()) {
            out.println("summary: " + runner.files().writeSummary(results));
        } else {
            out.println("summary.tsv not rewritten: only part of the checks ran");
        }
        long bad = results.stream().filter(r -> !r.ok()).count();
        out.println(bad == 0 ? "OK: the correct store passed and every broken target was caught"
                : "NOT OK: " + bad + " of " + results.size() + " runs are FAILED or ESCAPED");
        return bad == 0 ? 0 : 1;
    }

    private static int bad(PrintStream err, String message) {
        err.println("lincheck-checks: " + message);
        return 2;
    }
}
