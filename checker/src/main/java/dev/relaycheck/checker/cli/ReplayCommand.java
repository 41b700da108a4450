package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.logic.LogicLoader;
import dev.relaycheck.checker.replay.ReplayRecord;
import dev.relaycheck.checker.replay.Replayer;
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
@Command(name = "replay",
        description = "Re-execute a recorded failure step by step and say whether it still happens: REPRODUCED (exit 1), "
                + "NOT REPRODUCED (exit 0) or NON-DETERMINISM (exit 7).")
final class ReplayCommand implements Callable<Integer> {
    @Parameters(paramLabel = "TOKEN|FILE", description = "an rc1:... token or a results/failures/*.replay file")
    String source;
    @Option(names = "--logic", paramLabel = "ID|CLASS",
            description = "the logic to replay against (default: the record's own, by its class)")
    String logic;
    @Option(names = "--classpath", paramLabel = "JAR[:DIR...]",
            description = "where to load the logic's class from, when it is a user's logic (not a catalogue id)")
    String classpath;
    @Option(names = "--decision-timeout", paramLabel = "SECONDS", defaultValue = "10",
            description = "a decision of the logic that does not return within this long is a LOGIC-ERROR (default: ${DEFAULT-VALUE})")
    String decisionTimeout = "10";
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        LogicOptions.applyDecisionTimeout(decisionTimeout);
        ReplayRecord record = read();
        Replayer.Result r = Replayer.replay(record, subject(record));
        spec.commandLine().getOut().print(r.report());
        spec.commandLine().getOut().flush(); // print() does not flush, and main exits right after
        return ExitCodes.of(r.verdict());
    }

    /** --logic if given; else the record's class: a shipped logic by id, a user's class from --classpath. */
    private RelayLogic subject(ReplayRecord record) {
        if (logic != null) {
            return LogicLoader.load(logic, classpath);
        }
        if (LogicLoader.isShipped(record.logicId(), record.logicClass())) {
            return LogicLoader.load(record.logicId(), null);
        }
        String name = record.logicClass().isEmpty() ? record.logicId() : record.logicClass();
        try {
            return LogicLoader.load(name, classpath);
        } catch (UsageException e) {
            throw new UsageException("this record is for logic '" + record.logicId() + "' (" + name + "): " + e.getMessage());
        }
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
