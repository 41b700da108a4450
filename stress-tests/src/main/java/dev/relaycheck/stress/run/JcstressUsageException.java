package dev.relaycheck.stress.run;

/** Bad input from the command line or a system property: reported as one line, exit status 2. */
public final class JcstressUsageException extends RuntimeException {
    public JcstressUsageException(String message) {
        super(message);
    }
}
