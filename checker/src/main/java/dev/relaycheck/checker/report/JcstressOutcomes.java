package dev.relaycheck.checker.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads results/jcstress/outcomes.tsv ({@code test outcome count grade description}, one row per observed or
 * declared outcome of each jcstress test) into histograms, one per test, in file order.
 */
public final class JcstressOutcomes {
    private JcstressOutcomes() {
    }

    public static List<Histogram> read(Path tsv) {
        if (!Files.isRegularFile(tsv)) {
            return List.of();
        }
        Map<String, List<Histogram.Bar>> byTest = new LinkedHashMap<>();
        try {
            List<String> lines = Files.readAllLines(tsv, StandardCharsets.UTF_8);
            for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                String[] f = line.split("\t", -1);
                if (f.length == 5) {
                    byTest.computeIfAbsent(f[0], k -> new ArrayList<>())
                            .add(new Histogram.Bar(f[1], Long.parseLong(f[2]), f[3], f[4]));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NumberFormatException e) {
            return List.of();
        }
        List<Histogram> out = new ArrayList<>();
        byTest.forEach((test, bars) -> out.add(new Histogram(test, bars)));
        return out;
    }
}
