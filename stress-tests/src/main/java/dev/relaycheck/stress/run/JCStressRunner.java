package dev.relaycheck.stress.run;

import org.openjdk.jcstress.JCStress;
import org.openjdk.jcstress.Options;
import org.openjdk.jcstress.infra.collectors.DiskReadCollector;
import org.openjdk.jcstress.infra.collectors.InProcessCollector;
import org.openjdk.jcstress.infra.collectors.TestResult;
import org.openjdk.jcstress.infra.grading.GradingResult;
import org.openjdk.jcstress.infra.grading.ReportUtils;
import org.openjdk.jcstress.infra.runners.TestList;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Runs jcstress in this JVM over the curriculum tests that match, and reads back what it observed. jcstress
 * always writes its result blob to the working directory; here it goes into the report directory instead,
 * so nothing lands in the repository root. jcstress keeps probed JVM flags in static state, so it can run
 * only once per JVM: a second run would fork its workers with every flag twice.
 */
public final class JCStressRunner {
    public static final String BLOB = "jcstress-results.bin.gz";
    public static final String CONSOLE_LOG = "jcstress-console.log";

    private static final AtomicBoolean RAN = new AtomicBoolean();

    private JCStressRunner() {
    }

    /** The curriculum tests (jcstress names) a regex selects, sorted. */
    public static List<String> select(String regex) {
        Pattern p = Pattern.compile(regex);
        return TestList.tests().stream().filter(t -> p.matcher(t).find()).sorted().toList();
    }

    /** The tests a run with these options runs: the user's targets when user classes are given, else the shipped ones. */
    public static List<String> select(CurriculumOptions o) {
        return select(o.user().testRegex(o.tests()));
    }

    /**
     * The jcstress command line for these options (without the result file, which is pinned separately).
     * Without the JVM matrix: one JVM configuration ({@code -jvmArgs} turns jcstress's auto-detected matrix
     * off; on JDK 17 it still runs it with and without biased locking), no split compilation, no heap
     * pre-touch, so a harness costs seconds rather than minutes.
     */
    public static List<String> jcstressArgs(CurriculumOptions o) {
        List<String> args = new ArrayList<>(List.of("-m", o.mode().id()));
        if (!o.jvmMatrix()) {
            args.addAll(List.of("-sc", "false", "-pth", "false", "-jvmArgs", "-Xmx256m"));
        }
        if (o.user().given()) {
            // one option per -jvmArgs (or -jvmArgsPrepend for the matrix): jcstress splits a lone value on spaces
            String flag = o.jvmMatrix() ? "-jvmArgsPrepend" : "-jvmArgs";
            o.user().forkProperties(o.out()).forEach(p -> args.addAll(List.of(flag, p)));
        }
        args.addAll(List.of("-c", Integer.toString(o.cpus()), "-t", o.user().testRegex(o.tests()), "-r", o.out().toString()));
        if (o.iterations() > 0) {
            args.addAll(List.of("-iters", Integer.toString(o.iterations())));
        }
        return args;
    }

    public static List<TestRun> run(CurriculumOptions o, PrintStream console) throws Exception {
        if (select(o).isEmpty()) {
            throw new JcstressUsageException("no curriculum test matches --tests " + o.tests() + " (java -jar jcstress.jar -l lists them)");
        }
        int machineCpus = Runtime.getRuntime().availableProcessors();
        if (o.cpus() > machineCpus) {
            throw new JcstressUsageException("--cpus " + o.cpus() + ": this machine has only " + machineCpus);
        }
        if (!RAN.compareAndSet(false, true)) {
            throw new IllegalStateException("jcstress already ran in this JVM; run the curriculum in a fresh JVM");
        }
        Files.createDirectories(o.out());
        removePreviousReports(o.out());
        ForkProof.clear(o.out());
        Path blob = o.out().resolve(BLOB);
        Options jcOptions = new PinnedBlobOptions(jcstressArgs(o).toArray(new String[0]), blob);
        PrintStream realOut = System.out;
        try (OutputStream log = new BufferedOutputStream(Files.newOutputStream(o.out().resolve(CONSOLE_LOG)));
             PrintStream filtered = new PrintStream(new ConsoleFilter(log, console, o.verbose()), true,
                     StandardCharsets.UTF_8)) {
            System.setOut(filtered);
            if (!jcOptions.parse()) {
                throw new JcstressUsageException("jcstress rejected the options " + jcstressArgs(o));
            }
            new JCStress(jcOptions).run();
        } catch (AssertionError e) {
            // jcstress ends a run that observed any forbidden outcome this way; broken variants are supposed
            // to, so the verdicts are made from the results below, not from this
            if (e.getMessage() == null || !e.getMessage().startsWith("TEST FAILURES")) {
                throw e;
            }
        } finally {
            System.setOut(realOut);
        }
        if (!Files.exists(blob)) {
            throw new IllegalStateException("jcstress wrote no results; see " + o.out().resolve(CONSOLE_LOG));
        }
        return read(blob);
    }

    /** Reads a result blob back: one merged {@link TestRun} per test, sorted by name. */
    public static List<TestRun> read(Path blob) throws IOException, ClassNotFoundException {
        InProcessCollector collector = new InProcessCollector();
        DiskReadCollector reader = new DiskReadCollector(blob.toString(), collector);
        try {
            reader.dump();
        } finally {
            reader.close();
        }
        List<TestRun> runs = new ArrayList<>();
        for (TestResult r : ReportUtils.mergedByName(collector.getTestResults())) {
            List<OutcomeCount> outcomes = new ArrayList<>();
            for (GradingResult g : r.grading().gradingResults.values()) {
                outcomes.add(new OutcomeCount(g.id, g.count, g.expect, g.description));
            }
            runs.add(new TestRun(r.getName(), r.status().name(), r.getTotalCount(), outcomes, r.getMessages()));
        }
        runs.sort(Comparator.comparing(TestRun::name));
        return runs;
    }

    /** Only what a previous run of this tool wrote: its HTML pages, text summaries, blob and log. */
    private static void removePreviousReports(Path out) throws IOException {
        try (Stream<Path> files = Files.list(out)) {
            for (Path f : files.toList()) {
                String n = f.getFileName().toString();
                boolean ours = n.endsWith(".html") || n.endsWith(".txt") || n.equals(JcstressReports.SUMMARY_TSV) || n.equals(JcstressReports.OUTCOMES_TSV)
                        || n.equals(BLOB) || n.equals(CONSOLE_LOG) || n.matches("jcstress-results-.*\\.bin\\.gz");
                if (ours && Files.isRegularFile(f)) {
                    Files.delete(f);
                }
            }
        }
    }

    /** jcstress options whose result blob goes where we say, not into the working directory. */
    private static final class PinnedBlobOptions extends Options {
        private final Path blob;

        PinnedBlobOptions(String[] args, Path blob) {
            super(args);
            this.blob = blob;
        }

        @Override
        public String getResultFile() {
            return blob.toString();
        }

        @Override
        public void printSettingsOn(PrintStream out) {
            super.printSettingsOn(out);
            out.println("    (the result blob is written to " + blob + ", not to the working directory)");
            out.println();
        }
    }
}
