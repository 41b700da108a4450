package dev.relaycheck.checker.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The other checkers' own reports the page links to, relative to results/: jcstress's HTML report, every
 * Lincheck trace, every SQL check's report. Sorted by name, so the page does not depend on directory order.
 */
public record ReportLinks(boolean jcstressHtml, List<String> lincheck, List<String> sql) {
    public static final ReportLinks NONE = new ReportLinks(false, List.of(), List.of());

    public ReportLinks {
        lincheck = List.copyOf(lincheck);
        sql = List.copyOf(sql);
    }

    public static ReportLinks scan(Path results) {
        return new ReportLinks(Files.isRegularFile(results.resolve("jcstress/index.html")), texts(results, "lincheck"),
                texts(results, "sql"));
    }

    private static List<String> texts(Path results, String dir) {
        Path d = results.resolve(dir);
        if (!Files.isDirectory(d)) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(d)) {
            files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".txt")).sorted()
                    .forEach(n -> out.add(dir + "/" + n));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
