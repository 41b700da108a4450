package dev.relaycheck.model.shard;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What one shard of a seeded search did, as {@code relaycheck merge} reads it back: the command and the arguments that
 * shape its result (the same for every shard of a run), which shard it was, and one row per schedule it ran (the
 * search decides the rows' fields). Text, one line each:
 *
 * <pre>
 * relaycheck-shard 1
 * command random
 * arg -s
 * arg soak
 * shard 2/4
 * row walk	soak	5	60	8	0	...
 * </pre>
 *
 * Merging needs only these files and what the command itself needs (the logic's class path, a scenario file): no
 * state of the shards' machines.
 */
public record ShardFile(String command, List<String> args, Shard shard, List<List<String>> rows) {
    /** The file a shard writes into its results folder. */
    public static final String NAME = "shard.tsv";
    private static final String MAGIC = "relaycheck-shard 1";

    public ShardFile {
        args = List.copyOf(args);
        rows = rows.stream().map(List::copyOf).toList();
    }

    /** The rows of one kind (their first field), without it. */
    public List<List<String>> rows(String kind) {
        return rows.stream().filter(r -> r.get(0).equals(kind)).map(r -> r.subList(1, r.size())).toList();
    }

    /** Writes {@code dir/shard.tsv}; returns its path. */
    public Path write(Path dir) {
        StringBuilder b = new StringBuilder(MAGIC).append('\n').append("command ").append(oneLine(command)).append('\n');
        args.forEach(a -> b.append("arg ").append(oneLine(a)).append('\n'));
        b.append("shard ").append(shard).append('\n');
        for (List<String> row : rows) {
            b.append("row ").append(String.join("\t", row.stream().map(ShardFile::field).toList())).append('\n');
        }
        Path file = dir.resolve(NAME);
        try {
            Files.createDirectories(dir);
            Files.writeString(file, b.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return file;
    }

    /** {@code dir/shard.tsv}, or {@code dir} itself when it is a file; an IllegalArgumentException in one line. */
    public static ShardFile read(Path dir) {
        Path file = Files.isDirectory(dir) ? dir.resolve(NAME) : dir;
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no shard results there (a run with --shard I/N writes " + NAME + ")");
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage());
        }
        if (lines.isEmpty() || !lines.get(0).equals(MAGIC)) {
            throw new IllegalArgumentException(file + " is not a shard's results (its first line is not '" + MAGIC + "')");
        }
        String command = null;
        Shard shard = null;
        List<String> args = new ArrayList<>();
        List<List<String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            int space = line.indexOf(' ');
            String key = space < 0 ? line : line.substring(0, space);
            String value = space < 0 ? "" : line.substring(space + 1);
            switch (key) {
                case "command" -> command = value;
                case "arg" -> args.add(value);
                case "shard" -> {
                    try {
                        shard = Shard.parse(value);
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(file + ": " + e.getMessage());
                    }
                }
                case "row" -> rows.add(List.of(value.split("\t", -1)));
                default -> throw new IllegalArgumentException(file + ": unknown line '" + line + "'");
            }
        }
        if (command == null || shard == null) {
            throw new IllegalArgumentException(file + " is cut short: it names no " + (command == null ? "command" : "shard"));
        }
        return new ShardFile(command, args, shard, rows);
    }

    /**
     * The shard files of {@code dirs}, in shard order: every shard of one run, each once. Shards of different
     * commands, arguments or counts, a shard given twice and a shard missing are each refused in one line.
     */
    public static List<ShardFile> readAll(List<Path> dirs) {
        if (dirs.isEmpty()) {
            throw new IllegalArgumentException("merge needs the folders the shards wrote (each holds a " + NAME + ")");
        }
        List<ShardFile> files = new ArrayList<>();
        for (Path d : dirs) {
            ShardFile f = read(d);
            ShardFile first = files.isEmpty() ? f : files.get(0);
            if (!f.command.equals(first.command) || !f.args.equals(first.args)) {
                throw new IllegalArgumentException(d + " is a shard of another run ('" + f.describe() + "', not '" + first.describe() + "')");
            }
            if (f.shard.count() != first.shard.count()) {
                throw new IllegalArgumentException(d + " is shard " + f.shard + ", of another split than " + first.shard);
            }
            for (ShardFile g : files) {
                if (g.shard.index() == f.shard.index()) {
                    throw new IllegalArgumentException("shard " + f.shard + " is given twice (" + d + ")");
                }
            }
            files.add(f);
        }
        int count = files.get(0).shard.count();
        if (files.size() < count) {
            List<Integer> missing = new ArrayList<>();
            for (int i = 1; i <= count; i++) {
                int at = i;
                if (files.stream().noneMatch(f -> f.shard.index() == at)) {
                    missing.add(i);
                }
            }
            throw new IllegalArgumentException("shards missing: " + String.join(", ", missing.stream().map(i -> i + "/" + count).toList())
                    + " (a merge of some shards is not the run's result)");
        }
        files.sort(Comparator.comparingInt(f -> f.shard.index()));
        return files;
    }

    /** The command and its arguments, as a person typed them. */
    public String describe() {
        return (command + " " + String.join(" ", args)).strip();
    }

    private static String oneLine(String s) {
        if (s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("a shard's argument cannot hold a line break: '" + s + "'");
        }
        return s;
    }

    private static String field(String s) {
        if (s.indexOf('\t') >= 0) {
            throw new IllegalArgumentException("a shard's row field cannot hold a tab: '" + s + "'");
        }
        return oneLine(s);
    }
}
