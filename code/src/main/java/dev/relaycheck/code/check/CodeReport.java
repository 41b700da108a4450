package dev.relaycheck.code.check;

import dev.relaycheck.code.judge.Reached;
import dev.relaycheck.code.run.RunResult;
import dev.relaycheck.code.run.Settings;
import dev.relaycheck.code.run.TraceLine;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** A check of a relay's code as text: what ran, what it reached, every invariant broken with its trace and replay line. */
public final class CodeReport {
    private CodeReport() {
    }

    /** One line saying what ran: the relay, the database, the runs and the world they ran in. */
    public static String heading(String relay, CodeCheck.Outcome o) {
        Settings s = o.settings();
        return "relay " + relay + " on " + o.db().id() + " (" + o.db().describe() + "): " + o.runs() + " runs, " + s.instances()
                + " instances, " + s.events() + " events on " + s.aggregates() + " aggregates, instance ids " + s.instanceIds().text();
    }

    public static String text(String relay, CodeCheck.Outcome o, Function<CodeCheck.Failure, String> replay) {
        StringBuilder b = new StringBuilder(heading(relay, o)).append('\n');
        b.append("  reached: ");
        List<String> reached = new ArrayList<>();
        List<Reached> required = Reached.required(o.reached());
        for (Reached r : Reached.values()) {
            reached.add(r.what() + " (" + o.reached().getOrDefault(r, 0) + " runs" + (required.contains(r) ? ", required" : "") + ")");
        }
        b.append(String.join("; ", reached)).append('\n');
        for (CodeCheck.Failure f : o.failures().values()) {
            b.append("  FAILED ").append(f.finding().invariant()).append(" in run ").append(f.run().index()).append(" (")
                    .append(f.run().strategy()).append(" seed ").append(f.run().seed())
                    .append(f.shrunk() ? ", its " + f.unshrunkSteps() + " scheduled steps shrunk to " + scheduled(f.result()) : "")
                    .append("): ").append(f.finding().detail()).append('\n');
            b.append(indent(trace(f.result(), f.finding().step()), "    "));
            b.append("    replay: ").append(replay.apply(f)).append('\n');
        }
        for (CodeCheck.Failure f : o.notPromised().values()) {
            b.append("  not promised: ").append(f.finding().invariant()).append(" in run ").append(f.run().index()).append(": ")
                    .append(f.finding().detail()).append(" (the relay declares it does not promise this)\n");
        }
        for (CodeCheck.Stuck s : o.stuck()) {
            b.append("  ").append(s.confirmed() ? "NO PROGRESS" : "INCONCLUSIVE").append(" in run ").append(s.run().index()).append(" (")
                    .append(s.run().strategy()).append(" seed ").append(s.run().seed()).append("): ").append(s.why())
                    .append(s.confirmed() ? "\n    (the same again with three times the bound)" : "\n    (with three times the bound it "
                            + "finished: a time limit, not a verdict)").append('\n');
        }
        if (o.verdict() == CodeCheck.Verdict.VACUOUS) {
            b.append("  VACUOUS: no run reached ").append(String.join(", ", o.missing().stream().map(Reached::what).toList()))
                    .append(": a pass would prove nothing about it; run more (--runs)\n");
        }
        b.append("  ").append(o.verdict()).append('\n');
        return b.toString();
    }

    private static int scheduled(RunResult r) {
        return r.schedule().isBlank() ? 0 : r.schedule().split(" ").length;
    }

    /**
     * The trace of a run up to the step a finding names (all of it for a finding at the end), with a run of healing
     * steps that changed nothing written as one line.
     */
    public static String trace(RunResult r, int upTo) {
        StringBuilder b = new StringBuilder();
        List<TraceLine> lines = r.trace();
        for (int i = 0; i < lines.size(); i++) {
            TraceLine t = lines.get(i);
            if (upTo > 0 && t.number() > upTo) {
                break;
            }
            int run = 0;
            while (i + run < lines.size() && idle(lines.get(i + run)) && (upTo <= 0 || lines.get(i + run).number() <= upTo)) {
                run++;
            }
            if (run > 3) {
                b.append(String.format("%4d  ... %d healing steps that changed nothing (polls that found nothing, ticks), to %s%n",
                        t.number(), run, lines.get(i + run - 1).clock()));
                i += run - 1;
                continue;
            }
            b.append(t.text());
            r.findings().stream().filter(f -> f.step() == t.number()).forEach(f -> b.append("   <== ").append(f.invariant()));
            b.append('\n');
        }
        return b.toString();
    }

    /** A healing step that changed nothing: a poll that found nothing, a tick (drawn as one line in a run of them). */
    public static boolean idle(TraceLine t) {
        return t.phase().equals("healing") && t.changes().isEmpty() && (t.result().isEmpty() || t.result().equals("0 rows"));
    }

    private static String indent(String text, String by) {
        StringBuilder b = new StringBuilder();
        text.lines().forEach(l -> b.append(by).append(l).append('\n'));
        return b.toString();
    }
}
