package dev.relaycheck.checker.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A seeded search split with {@code --shard I/N}, each shard a process of its own with its own results folder (as on
 * separate machines), then {@code relaycheck merge}: the same counts, findings, replay lines and exit code as one run
 * over the same seeds. On a user's logic (random walks) and a user's relay file (SQL conformance on H2), both broken
 * so that a finding decides the result; the failing walk is one no single shard's first walks reach.
 */
class ShardMergeTest {
    private static final int SHARDS = 4;

    @TempDir
    static Path dir;

    @Test
    void randomWalksInShardsMergeToTheOneRunsResult() throws IOException {
        Path jar = ChildCli.compileJar(dir, "acme-release", Map.of("com.acme.TokenlessRelease", """
                package com.acme;
                import dev.relaycheck.model.CorrectRelayLogic;
                import dev.relaycheck.model.OutboxRow;
                public final class TokenlessRelease extends CorrectRelayLogic {
                    @Override public String id() { return "acme-tokenless-release"; }
                    @Override public String description() { return "releases a failed delivery by event id"; }
                    @Override public boolean acceptsRelease(OutboxRow row, long token) { return row.isPending(); }
                }
                """));
        List<String> search = List.of("random", "--logic", "com.acme.TokenlessRelease", "--classpath", jar.toString(),
                "-s", "mixed-big", "-s", "stale-ack-after-expiry", "--runs", "400", "--seed", "1", "--strategy", "random");
        ChildCli.Run one = ChildCli.run(dir, with(search, "--threads", "2", "--results", "random-one"));
        assertThat(one.exit()).as(one.toString()).isEqualTo(1);
        Matcher walk = Pattern.compile("found by: {3}random walk #(\\d+)").matcher(one.out());
        assertThat(walk.find()).as(one.out()).isTrue();
        assertThat(Integer.parseInt(walk.group(1))).as("a failure past every shard's first walk").isGreaterThanOrEqualTo(SHARDS);

        List<String> shardDirs = runShards(search, "random");
        ChildCli.Run merged = merge(shardDirs, "random-merged");
        assertThat(merged.exit()).as(merged.toString()).isEqualTo(one.exit());
        assertThat(merged.out()).startsWith("merge of " + SHARDS + " shards of: relaycheck random --logic com.acme.TokenlessRelease");
        assertThat(comparable(merged.out())).isEqualTo(comparable(one.out()));
        assertThat(one.out()).contains("STALE_ACK_REJECTED").contains("states visited in").contains("replay:     ./relaycheck replay rc1:");
        Matcher record = Pattern.compile("record: {5}random-one/(failures/.*\\.replay)").matcher(one.out());
        assertThat(record.find()).as(one.out()).isTrue();
        assertThat(dir.resolve("random-merged").resolve(record.group(1))).hasSameTextualContentAs(dir.resolve("random-one").resolve(record.group(1)));
    }

    @Test
    void sqlConformanceInShardsMergesToTheOneRunsResult() throws IOException {
        ChildCli.Run template = ChildCli.run(dir, "sql", "template");
        String fenced = "WHERE event_id = :event AND lease_token = :token AND status = 'PENDING'";
        assertThat(template.out()).contains(fenced);
        Path relay = dir.resolve("acme-ack.sql"); // the team's relay: its ack matches the event id, not the token
        Files.writeString(relay, template.out().replaceFirst(Pattern.quote(fenced), "WHERE event_id = :event AND status = 'PENDING'"));
        List<String> check = List.of("sql", "conformance", "--sql", relay.toString(), "--controls", "no", "--seeds", "6");
        ChildCli.Run one = ChildCli.run(dir, with(check, "--out", "sql-one"));
        assertThat(one.exit()).as(one.toString()).isEqualTo(1);

        List<String> shardDirs = runShards(check, "sql");
        ChildCli.Run merged = merge(shardDirs, "sql-merged");
        assertThat(merged.exit()).as(merged.toString()).isEqualTo(one.exit());
        Path a = dir.resolve("sql-one");
        Path b = dir.resolve("sql-merged");
        assertThat(Files.readString(a.resolve("summary.tsv"))).contains("FAILED\tSTALE_ACK_REJECTED (scenario ")
                .contains("replay: ./relaycheck sql replay --sql ");
        assertThat(b.resolve("summary.tsv")).hasSameTextualContentAs(a.resolve("summary.tsv"));
        assertThat(withoutSpeed(Files.readString(b.resolve("conformance.txt")))).isEqualTo(withoutSpeed(Files.readString(a.resolve("conformance.txt"))));
    }

    @Test
    void aMergeOfSomeShardsOrOfTwoRunsIsRefusedInOneLine() {
        List<String> search = List.of("random", "-s", "stale-ack-after-expiry", "--runs", "20");
        for (int i = 1; i <= 2; i++) {
            assertThat(ChildCli.run(dir, with(search, "--shard", i + "/2", "--results", "refused-" + i)).exit()).isZero();
        }
        assertThat(ChildCli.run(dir, with(search, "--seed", "9", "--shard", "2/2", "--results", "refused-other")).exit()).isZero();

        ChildCli.Run some = ChildCli.run(dir, "merge", "refused-1");
        assertThat(some.exit()).isEqualTo(2);
        assertThat(some.err()).isEqualTo("relaycheck: merge: shards missing: 2/2 (a merge of some shards is not the run's result)\n");
        ChildCli.Run mixed = ChildCli.run(dir, "merge", "refused-1", "refused-other");
        assertThat(mixed.exit()).isEqualTo(2);
        assertThat(mixed.err()).startsWith("relaycheck: merge: refused-other is a shard of another run").hasLineCount(1);
        ChildCli.Run bad = ChildCli.run(dir, with(search, "--shard", "3/2"));
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).isEqualTo("relaycheck: --shard 3/2: a shard is I/N with 1 <= I <= N, got 3/2\n");
    }

    /** Runs shard 1..N of {@code command}, each in a process and a folder of its own; returns the folders. */
    private static List<String> runShards(List<String> command, String name) {
        List<String> dirs = new ArrayList<>();
        for (int i = SHARDS; i >= 1; i--) { // any order: a shard knows only its own schedules
            String out = name + "-shard-" + i;
            ChildCli.Run shard = ChildCli.run(dir, with(command, "--shard", i + "/" + SHARDS,
                    command.get(0).equals("sql") ? "--out" : "--results", out));
            assertThat(shard.exit()).as("a shard's verdict is the merge's: " + shard).isZero();
            assertThat(shard.out()).contains("shard " + i + "/" + SHARDS + " of ").contains("written; the verdict is the merge's");
            dirs.add(out);
        }
        return dirs;
    }

    private static ChildCli.Run merge(List<String> shardDirs, String results) {
        List<String> args = new ArrayList<>(List.of("merge"));
        args.addAll(shardDirs);
        return ChildCli.run(dir, with(args, "--results", results));
    }

    private static String[] with(List<String> args, String... more) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    /** The output less what differs by design: the merge's first line, wall times, the records' folder. */
    private static String comparable(String out) {
        return out.replaceFirst("^merge of .*\n", "").replaceAll(" \\([0-9.]+ s, [^)]*\\)", "")
                .replaceAll("(?m)^ {2}record: .*$", "");
    }

    private static String withoutSpeed(String report) {
        return report.replaceAll("(?m)^ +\\d+ SQL steps in .*$", "");
    }
}
