package dev.relaycheck.stress.run;

import dev.relaycheck.model.store.UserTarget;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The evidence that the forked worker JVMs ran the user's classes and not something else: every fork that
 * built a user target wrote a proof file naming each class and the jar it was really loaded from
 * ({@link UserTarget#proofLines()}). A run proves itself when at least one fork wrote one and every one of them
 * names exactly the classes and jars the parent loaded. A fork that fell back to a shipped class, or never
 * loaded the user's, cannot produce a matching file.
 */
public final class ForkProof {
    private ForkProof() {
    }

    /** Removes the proof files of an earlier run. */
    static void clear(Path out) throws IOException {
        Path dir = JcstressUserClasses.proofDir(out);
        if (!Files.isDirectory(dir)) {
            return;
        }
        for (Path f : files(dir)) {
            Files.delete(f);
        }
    }

    /** Empty when the forks proved they ran {@code expected}; otherwise why not, in one line. */
    public static Optional<String> check(Path out, UserTarget expected) throws IOException {
        Path dir = JcstressUserClasses.proofDir(out);
        List<Path> proofs = Files.isDirectory(dir) ? files(dir) : List.of();
        if (proofs.isEmpty()) {
            return Optional.of("no forked JVM wrote a proof that it loaded " + String.join(" and ", expected.proofLines())
                    + " (in " + dir + ")");
        }
        for (Path f : proofs) {
            List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
            if (!lines.equals(expected.proofLines())) {
                return Optional.of("a forked JVM ran " + String.join(" and ", lines) + " instead of "
                        + String.join(" and ", expected.proofLines()) + " (" + f.getFileName() + ")");
            }
        }
        return Optional.empty();
    }

    /** How many forks proved it (for the report). */
    public static int count(Path out) throws IOException {
        Path dir = JcstressUserClasses.proofDir(out);
        return Files.isDirectory(dir) ? files(dir).size() : 0;
    }

    private static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith(UserTarget.PROOF_PREFIX)).sorted().toList();
        }
    }
}
