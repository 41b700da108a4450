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

    /** Runs the check on one target with the given budget. */
    RunOutcome run(Target target, LincheckBudget budget);
}
