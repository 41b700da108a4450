package dev.relaycheck.stress.run;

import java.nio.file.Path;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What to run and where to write it.
 *
 * @param mode       how hard jcstress works
 * @param tests      regex over test names ({@code dev.relaycheck.stress.Lease_01_DoubleClaim.Correct}), found anywhere
 * @param out        report directory: jcstress HTML, the per-harness text summaries, summary.tsv, the result blob
 * @param cpus       CPUs jcstress may use (2 is enough for the two-actor harnesses)
 * @param iterations iterations per fork, overriding the mode's (0: the mode's own)
 * @param verbose    forward all of jcstress's console output instead of one line per finished test
 */
public record CurriculumOptions(Mode mode, String tests, Path out, int cpus, int iterations, boolean verbose) {

    public static final String USAGE = "usage: Curriculum [--mode quick|default|tough] [--tests REGEX] [--out DIR]"
            + " [--cpus N] [--iterations N] [--verbose]";

    public CurriculumOptions {
        try {
            Pattern.compile(tests);
        } catch (PatternSyntaxException e) {
            throw new UsageException("--tests: not a regular expression: " + tests);
        }
        if (cpus < 2) {
            throw new UsageException("--cpus: every harness has two actors, so at least 2 CPUs are needed, got " + cpus);
        }
        if (iterations < 0) {
            throw new UsageException("--iterations: must be 0 (mode default) or more, got " + iterations);
        }
    }

    /** The defaults: quick, every harness, results/jcstress, two CPUs (fewer if the machine has fewer). */
    public static CurriculumOptions defaults() {
        return new CurriculumOptions(Mode.QUICK, ".*", Path.of("results", "jcstress"), 2, 0, false);
    }

    public static CurriculumOptions parse(String[] args) {
        CurriculumOptions o = defaults();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--mode" -> o = o.withMode(Mode.parse(value(args, ++i, arg)));
                case "--tests" -> o = new CurriculumOptions(o.mode, value(args, ++i, arg), o.out, o.cpus, o.iterations, o.verbose);
                case "--out" -> o = new CurriculumOptions(o.mode, o.tests, Path.of(value(args, ++i, arg)), o.cpus, o.iterations, o.verbose);
                case "--cpus" -> o = new CurriculumOptions(o.mode, o.tests, o.out, number(args, ++i, arg), o.iterations, o.verbose);
                case "--iterations" -> o = new CurriculumOptions(o.mode, o.tests, o.out, o.cpus, number(args, ++i, arg), o.verbose);
                case "--verbose" -> o = new CurriculumOptions(o.mode, o.tests, o.out, o.cpus, o.iterations, true);
                default -> throw new UsageException("unknown argument '" + arg + "'; " + USAGE);
            }
        }
        return o;
    }

    public CurriculumOptions withMode(Mode m) {
        return new CurriculumOptions(m, tests, out, cpus, iterations, verbose);
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            throw new UsageException(flag + " needs a value; " + USAGE);
        }
        return args[i];
    }

    private static int number(String[] args, int i, String flag) {
        String v = value(args, i, flag);
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new UsageException(flag + ": not a number: " + v);
        }
    }
}
