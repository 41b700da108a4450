package dev.relaycheck.lincheck;

/**
 * What one run of a check on one target gave.
 *
 * @param status what happened
 * @param detail one line: the forbidden outcome or invariant, or what was explored
 * @param report Lincheck's full failure text (scenario, results, interleaving); empty when it passed
 */
public record RunOutcome(Status status, String detail, String report) {

    /** How a run ended. */
    public enum Status {
        /** Lincheck explored its budget and found nothing. */
        PASSED,
        /** Lincheck failed the run with the kind of failure the check looks for (non-linearizable results, or a broken invariant). */
        VIOLATION,
        /**
         * Lincheck said the execution hung. Its hang detection is time-based, so on a loaded machine a correct
         * store can be reported hung: inconclusive, never a verdict on its own.
         */
        HUNG,
        /** Lincheck failed the run for some other reason (hang, unexpected exception, ...), or the run itself broke. */
        OTHER_FAILURE,
        /**
         * Lincheck found a failure but crashed while rendering its report (seen once with runConcurrentTest on a
         * loaded machine: an IndexOutOfBoundsException in its trace builder), so what it found is unknown.
         */
        REPORT_CRASHED
    }

    public static RunOutcome passed(String detail) {
        return new RunOutcome(Status.PASSED, detail, "");
    }

    /** The same outcome with a note put before its detail and its report. */
    public RunOutcome noted(String note) {
        return new RunOutcome(status, note + "; " + detail, note + "\n\n" + report);
    }
}
