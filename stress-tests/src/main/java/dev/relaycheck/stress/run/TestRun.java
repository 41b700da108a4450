package dev.relaycheck.stress.run;

import java.util.List;

/**
 * What jcstress observed for one curriculum test, merged across forks and JVM configurations.
 *
 * @param name     jcstress test name, e.g. {@code dev.relaycheck.stress.Lease_01_DoubleClaim.Correct}
 * @param status   jcstress status: NORMAL, or why the test did not run to completion
 * @param samples  total samples
 * @param outcomes every observed state and every declared outcome, sorted by id
 * @param messages error output of the test, if any
 */
public record TestRun(String name, String status, long samples, List<OutcomeCount> outcomes, List<String> messages) {

    public TestRun {
        outcomes = List.copyOf(outcomes);
        messages = List.copyOf(messages);
    }

    /** The harness file: {@code Lease_01_DoubleClaim}. */
    public String harness() {
        String[] parts = name.split("\\.");
        return parts.length >= 2 ? parts[parts.length - 2] : name;
    }

    /** The nested class: {@code Correct}, {@code ClaimIgnoresLease}, ... */
    public String variant() {
        String[] parts = name.split("\\.");
        return parts[parts.length - 1];
    }

    public boolean completed() {
        return "NORMAL".equals(status);
    }

    /**
     * Whether it ended at a time limit (jcstress's TIMEOUT_ERROR: a fork that did not answer in time) or with
     * its VM gone (VM_ERROR: a fork that died or could not start), which load can cause; not an exception.
     */
    public boolean timeBound() {
        return "TIMEOUT_ERROR".equals(status) || "VM_ERROR".equals(status);
    }
}
