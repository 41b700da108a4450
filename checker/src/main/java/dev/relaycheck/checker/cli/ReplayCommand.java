package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.LogicLoader;
import dev.relaycheck.checker.ReplayRecord;
import dev.relaycheck.checker.Replayer;
import dev.relaycheck.checker.UsageException;
import dev.relaycheck.model.RelayLogic;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** Replays a failure from its one-line token or its record file, verifying every step. */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = "Re-execute a recorded failure step by step (exit 1: reproduced, 0: no longer reproduces).")
final class ReplayCommand implements Callable<Integer> {
    @Parameters(paramLabel = "TOKEN|FILE", description = "an rc1:... token or a results/failures/*.replay file")
    String source;
    @Option(names = "--logic", paramLabel = "ID|CLASS", description = "the logic to replay against (default: the record's)")
    String logic;
    @Option(names = "--classpath", paramLabel = "JAR[:DIR...]")
    String classpath;
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        ReplayRecord record = read();
        String name = logic != null ? logic : record.logicId();
        RelayLogic subject;
        try {
            subject = LogicLoader.load(name, classpath);
        } catch (UsageException e) {
            if (logic != null || record.logicClass().isEmpty()) {
                throw e;
            }
            subject = LogicLoader.load(record.logicClass(), classpath); // a user's logic: try the recorded class
        }
        Replayer.Result r = Replayer.replay(record, subject);
        spec.commandLine().getOut().print(r.report());
        spec.commandLine().getOut().flush(); // print does not flush an autoflushing writer; main exits right after
        return r.exitCode();
    }

    private ReplayRecord read() {
        if (ReplayRecord.looksLikeToken(source)) {
            return ReplayRecord.fromToken(source.trim());
        }
        Path p = Path.of(source);
        if (!Files.isRegularFile(p)) {
            throw new UsageException("'" + source + "' is neither a replay token (rc1:...) nor a readable file");
        }
        try {
            return ReplayRecord.parse(Files.readString(p, StandardCharsets.UTF_8));
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new UsageException("cannot read " + source + ": " + e.getMessage());
        }
    }
}
