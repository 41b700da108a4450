package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.replay.ReplayRecord;
import dev.relaycheck.checker.replay.Replayer;
import dev.relaycheck.checker.search.Verdict;
import dev.relaycheck.model.RelayLogic;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The regression corpus: every failure's replay record that earlier runs left under RESULTS/failures/. {@code check}
 * replays the records of the logic under test first, so a fixed bug that comes back fails the run in seconds,
 * before any search. Records of catalogue variants are not replayed: they are there to be caught.
 */
final class Corpus {
    /** One record replayed: its file, the record and what the replay found. */
    record Replayed(Path file, ReplayRecord record, Replayer.Result result) {
        boolean cameBack() {
            return result.verdict() != Verdict.CLEAN;
        }
    }

    private Corpus() {
    }

    /** Replays, in file-name order, every record under {@code results}/failures/ that is of {@code subject}. */
    static List<Replayed> replay(Path results, RelayLogic subject) {
        Path dir = results.resolve("failures");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<Replayed> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".replay")).sorted().toList()) {
                ReplayRecord record;
                try {
                    record = ReplayRecord.parse(Files.readString(f, StandardCharsets.UTF_8));
                } catch (RuntimeException e) {
                    continue; // not a record relaycheck wrote: the corpus is what it wrote
                }
                if (record.logicId().equals(subject.id())) {
                    out.add(new Replayed(f, record, Replayer.replay(record, subject)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + dir, e);
        }
        return out;
    }
}
