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
 * @param jvmMatrix  run every JVM configuration jcstress knows instead of plain tiered compilation only
 * @param verbose    forward all of jcstress's console output instead of one line per finished test
 * @param user       the user's logic and/or store to run instead of the shipped targets, or {@link JcstressUserClasses#NONE}
 */
public record CurriculumOptions(Mode mode, String tests, Path out, int cpus, int iterations, boolean jvmMatrix,
                                boolean verbose, JcstressUserClasses user) {

    public static final String USAGE = "usage: Curriculum [--mode quick|default|tough] [--tests REGEX] [--out DIR]"
            + " [--cpus N] [--iterations N] [--jvm-matrix] [--verbose] [--logic CLASS] [--store CLASS] [--classpath JAR]";

    /** The shipped curriculum, without user classes. */
    public CurriculumOptions(Mode mode, String tests, Path out, int cpus, int iterations, boolean jvmMatrix, boolean verbose) {
        this(mode, tests, out, cpus, iterations, jvmMatrix, verbose, JcstressUserClasses.NONE);
    }

    public CurriculumOptions {
        try {
            Pattern.compile(tests);
        } catch (PatternSyntaxException e) {
            throw new JcstressUsageException("--tests: not a regular expression: " + tests);
        }
        if (cpus < 2) {
            throw new JcstressUsageException("--cpus: every harness has two actors, so at least 2 CPUs are needed, got " + cpus);
        }
        if (iterations < 0) {
            throw new JcstressUsageException("--iterations: must be 0 (mode default) or more, got " + iterations);
        }
        if (user == null) {
            user = JcstressUserClasses.NONE;
        }
        if (!user.given() && !user.classpath().isEmpty()) {
            throw new JcstressUsageException("--classpath needs --logic CLASS or --store CLASS");
        }
    }

    /** The defaults: quick, every harness, results/jcstress, two CPUs (fewer if the machine has fewer). */
    public static CurriculumOptions defaults() {
        return new CurriculumOptions(Mode.QUICK, ".*", Path.of("results", "jcstress"), 2, 0, false, false);
    }

    public static CurriculumOptions parse(String[] args) {
        Mode mode = Mode.QUICK;
        String tests = ".*";
        Path out = Path.of("results", "jcstress");
        int cpus = 2;
        int iterations = 0;
        boolean jvmMatrix = false;
        boolean verbose = false;
        String logic = "";
        String store = "";
        String classpath = "";
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--mode" -> mode = Mode.parse(value(args, ++i, arg));
                case "--tests" -> tests = value(args, ++i, arg);
                case "--out" -> out = Path.of(value(args, ++i, arg));
                case "--cpus" -> cpus = number(args, ++i, arg);
                case "--iterations" -> iterations = number(args, ++i, arg);
                case "--jvm-matrix" -> jvmMatrix = true;
                case "--verbose" -> verbose = true;
                case "--logic" -> logic = value(args, ++i, arg);
                case "--store" -> store = value(args, ++i, arg);
                case "--classpath" -> classpath = value(args, ++i, arg);
                default -> throw new JcstressUsageException("unknown argument '" + arg + "'; " + USAGE);
            }
        }
        return new CurriculumOptions(mode, tests, out, cpus, iterations, jvmMatrix, verbose,
                new JcstressUserClasses(logic, store, classpath));
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            throw new JcstressUsageException(flag + " needs a value; " + USAGE);
        }
        return args[i];
    }

    private static int number(String[] args, int i, String flag) {
        String v = value(args, i, flag);
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new JcstressUsageException(flag + ": not a number: " + v);
        }
    }
}
