package dev.relaycheck.code.run;

/**
 * One step of a run as the trace shows it.
 *
 * @param number  from 1
 * @param phase   {@code faulty} or {@code healing}
 * @param actor   who went (a relay thread, {@code producer}, {@code clock})
 * @param choice  the schedule's step ({@code relay-1}, {@code tick}, {@code crash:relay-2}, ...)
 * @param point   what the actor did there: a statement, COMMIT, {@code poll}, {@code deliver E1}, the tick's new time
 * @param result  what came of it (a row count, what it threw), or empty
 * @param changes what the step changed in the committed outbox and effects, or empty
 * @param clock   the relay's clock after the step
 */
public record TraceLine(int number, String phase, String actor, String choice, String point, String result, String changes,
                        String clock) {

    public String text() {
        StringBuilder b = new StringBuilder(String.format("%4d  %-10s %-44s", number, actor, point));
        if (!result.isEmpty()) {
            b.append(" -> ").append(result);
        }
        if (!changes.isEmpty()) {
            b.append("   [").append(changes).append(']');
        }
        return b.toString();
    }
}
