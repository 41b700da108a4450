package dev.relaycheck.stress.run;

/** Bad input from the command line or a system property: reported as one line, exit status 2. */
public final class UsageException extends RuntimeException {
    public UsageException(String message) {
        super(message);
    }
}
