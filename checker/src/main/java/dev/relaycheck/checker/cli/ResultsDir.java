package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.UsageException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** --results is checked before the work: finding a violation and then failing to write it helps nobody. */
final class ResultsDir {
    private ResultsDir() {
    }

    /** Creates the folder if needed and proves a file can be written there; a usage error otherwise. */
    static Path requireWritable(Path dir) {
        try {
            Files.createDirectories(dir);
            Path probe = Files.createTempFile(dir, ".relaycheck-write-check", ".tmp");
            Files.delete(probe);
            return dir;
        } catch (IOException | SecurityException e) {
            String why = e instanceof java.nio.file.FileAlreadyExistsException ? "it exists and is not a folder"
                    : e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                    : e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null ? fs.getReason()
                    : String.valueOf(e.getMessage());
            throw new UsageException("--results " + dir + " is not a writable folder (" + why + ")");
        }
    }
}
