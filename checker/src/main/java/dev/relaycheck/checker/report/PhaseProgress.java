package dev.relaycheck.checker.report;

/** How far each phase of a check has come (model, jcstress, lincheck, sql): for a progress line, never for a result. */
@FunctionalInterface
public interface PhaseProgress {
    PhaseProgress NONE = (phase, done, total, unit, current) -> { };

    /**
     * @param done    items of the phase finished
     * @param total   items the phase has in all (0 while unknown)
     * @param unit    what an item is, plural ("searches", "tests", "checks")
     * @param current what runs now, or ""
     */
    void update(String phase, int done, int total, String unit, String current);
}
