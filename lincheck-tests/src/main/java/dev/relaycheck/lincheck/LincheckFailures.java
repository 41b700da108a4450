package dev.relaycheck.lincheck;

import org.jetbrains.lincheck.LincheckAssertionError;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns what Lincheck throws into a {@link RunOutcome}. Lincheck reports every failure as a
 * {@link LincheckAssertionError} whose text starts with a headline such as {@code = Invalid execution results =};
 * the headline says which kind of failure it is.
 */
final class LincheckFailures {
    static final String NON_LINEARIZABLE = "= Invalid execution results =";
    static final String CONCURRENT_TEST_FAILED = "= Concurrent test failed =";
    private static final Pattern HEADLINE = Pattern.compile("^= (.+) =$", Pattern.MULTILINE);
    private static final Pattern PROTOCOL_VIOLATION =
            Pattern.compile(Pattern.quote(ProtocolViolation.class.getName()) + ": (.*)$", Pattern.MULTILINE);

    private LincheckFailures() {
    }

    /** Runs a Lincheck check; a Lincheck failure or any exception becomes the outcome instead of propagating. */
    static RunOutcome capture(Runnable check, String passedDetail, String breaks) {
        try {
            check.run();
            return RunOutcome.passed(passedDetail);
        } catch (LincheckAssertionError e) {
            return classify(e.getMessage(), breaks);
        } catch (RuntimeException | AssertionError e) {
            StringWriter trace = new StringWriter();
            e.printStackTrace(new PrintWriter(trace));
            if (deadlinePassedWhileWaiting(e)) {
                return new RunOutcome(RunOutcome.Status.HUNG, "Lincheck's wait for its threads ran past its deadline ("
                        + oneLine(String.valueOf(e)) + "); its hang detection is time-based, so this is inconclusive", trace.toString());
            }
            if (thrownWhileReporting(e)) {
                return new RunOutcome(RunOutcome.Status.REPORT_CRASHED, "Lincheck found a failure but crashed rendering it: "
                        + oneLine(String.valueOf(e)), trace.toString());
            }
            return new RunOutcome(RunOutcome.Status.OTHER_FAILURE, "the check itself failed: " + oneLine(String.valueOf(e)), trace.toString());
        }
    }

    /**
     * Lincheck waits for its threads with a join whose time is what is left of its hang-detection deadline; on a loaded
     * machine the deadline can pass before the join, and {@code Thread.join} refuses the negative time it is given
     * ({@code IllegalArgumentException: timeout value is negative}, seen under {@code .ci/saturated}). That is the
     * same time-based hang detection tripping, not a finding.
     */
    static boolean deadlinePassedWhileWaiting(Throwable e) {
        if (!(e instanceof IllegalArgumentException) || !"timeout value is negative".equals(e.getMessage())) {
            return false;
        }
        for (StackTraceElement f : e.getStackTrace()) {
            if (f.getClassName().startsWith("org.jetbrains.kotlinx.lincheck.") && f.getMethodName().startsWith("await")) {
                return true;
            }
        }
        return false;
    }

    /** Lincheck builds its assertion error only once it has found a failure; a throw from inside that is its own bug. */
    static boolean thrownWhileReporting(Throwable e) {
        for (StackTraceElement f : e.getStackTrace()) {
            if (f.getClassName().equals(LincheckAssertionError.class.getName()) && f.getMethodName().equals("<init>")) {
                return true;
            }
        }
        return false;
    }

    static RunOutcome classify(String text, String breaks) {
        String report = text.strip() + "\n";
        if (report.contains(NON_LINEARIZABLE)) {
            String results = resultsSummary(report);
            // what the answers show broke, when they show it; a known mistake also names what it breaks; the hazard
            // scenario, when it was one, says where, never what broke
            java.util.Optional<Symptoms.Symptom> seen = Symptoms.in(report);
            String symptom = seen.map(s -> " (" + s + ")").orElse("");
            boolean said = seen.isPresent() && seen.get().invariant().name().equals(breaks);
            String mistake = breaks.isEmpty() || said ? "" : " (the mistake breaks " + breaks + ")";
            String scenario = HazardScenarios.ranIn(results).map(h -> " in scenario " + h.name()).orElse("");
            return new RunOutcome(RunOutcome.Status.VIOLATION,
                    "non-linearizable against the correct model" + symptom + mistake + scenario + ": " + results, report);
        }
        Matcher protocol = PROTOCOL_VIOLATION.matcher(report);
        if (report.contains(CONCURRENT_TEST_FAILED) && protocol.find()) {
            return new RunOutcome(RunOutcome.Status.VIOLATION, oneLine(protocol.group(1)), report);
        }
        Matcher headline = HEADLINE.matcher(report);
        String what = headline.find() ? headline.group(1) : "unrecognised Lincheck failure";
        if (what.contains("has hung")) {
            return new RunOutcome(RunOutcome.Status.HUNG, "Lincheck reported a hang (" + what
                    + "); its hang detection is time-based, so this is inconclusive", report);
        }
        return new RunOutcome(RunOutcome.Status.OTHER_FAILURE, "Lincheck failed for another reason: " + what, report);
    }

    /**
     * The results table that follows the headline, flattened: the operations run before the parallel part, the
     * parallel part thread by thread, and those run after.
     */
    static String resultsSummary(String report) {
        return ResultsTable.read(report).summary();
    }

    static String oneLine(String s) {
        return s.replaceAll("[\\t\\r\\n]+", " ").strip();
    }
}
