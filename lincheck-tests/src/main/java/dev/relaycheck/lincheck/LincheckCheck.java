package dev.relaycheck.lincheck;

import java.util.List;

/** One Lincheck check: a stable id, the targets it is pointed at, and how to run it on one of them. */
public interface LincheckCheck {

    /** Stable id, used in summary.tsv, report file names and {@code -Dlincheck.only=}. */
    String id();

    /** One line: what the check proves. */
    String description();

    /** The targets, correct first; every broken one must make the check fail. */
    List<Target> targets();

    /** Why this check cannot run on {@code target} (e.g. it needs a snapshot the store cannot produce), or empty. */
    default java.util.Optional<String> cannotRun(Target target) {
        return java.util.Optional.empty();
    }

    /** Runs the check on one target with the given budget. */
    RunOutcome run(Target target, LincheckBudget budget);
}
