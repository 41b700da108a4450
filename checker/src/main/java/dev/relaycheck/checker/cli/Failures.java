package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.logic.LogicFault;
import dev.relaycheck.checker.replay.ReplayLine;
import dev.relaycheck.checker.replay.ReplayRecord;
import dev.relaycheck.checker.search.SearchResult;
import dev.relaycheck.checker.trace.Counterexample;
import dev.relaycheck.checker.trace.TraceFormatter;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Shows a counterexample and stores its replay record under results/failures/. */
final class Failures {
    private Failures() {
    }

    /** Writes the record; returns its path. The name is fixed by logic, scenario and invariant. */
    static Path write(Path results, Counterexample cx) {
        return write(results, cx.logic().id() + "--" + cx.scenario().name() + "--" + cx.invariant(), ReplayRecord.of(cx));
    }

    /** Writes a logic fault's record, named by logic, scenario and verdict; returns its path. */
    static Path write(Path results, LogicFault f) {
        return write(results, f.logic().id() + "--" + f.scenario().name() + "--" + f.failure().verdict(), ReplayRecord.of(f));
    }

    private static Path write(Path results, String name, ReplayRecord record) {
        Path dir = results.resolve("failures");
        Path file = dir.resolve(name + ".replay");
        try {
            Files.createDirectories(dir);
            Files.writeString(file, record.toText(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        return file;
    }

    /** A search's summary and verdict lines, then each counterexample it found, shortest first. */
    static void report(PrintWriter out, Path results, SearchResult r, String timingSuffix) {
        out.println(r.summary());
        out.println("  " + r.verdictLine() + " (" + r.timing() + timingSuffix + ")");
        Counterexample before = null;
        for (Counterexample cx : r.counterexamples()) {
            if (before != null && before.path().equals(cx.path()) && before.trace().equals(cx.trace())) {
                out.print(TraceFormatter.formatSameSteps(cx, before));
                out.println("  replay:     " + ReplayLine.of(cx));
                out.println("  record:     " + write(results, cx));
            } else {
                show(out, results, cx);
                before = cx;
            }
        }
        r.logicFault().ifPresent(f -> show(out, results, f));
    }

    /** A logic fault: what failed, where, the steps before it, and the line that replays up to it. */
    static void show(PrintWriter out, Path results, LogicFault f) {
        out.print(f.format());
        out.println("  replay:     " + ReplayLine.of(f));
        out.println("  record:     " + write(results, f));
    }

    static void show(PrintWriter out, Path results, Counterexample cx) {
        out.print(TraceFormatter.format(cx));
        out.println("  replay:     " + ReplayLine.of(cx));
        out.println("  record:     " + write(results, cx));
    }
}
