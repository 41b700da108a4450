package dev.relaycheck.checker;

/** Bad input from the user: printed as one line, exit code 2. */
public class UsageException extends RuntimeException {
    public UsageException(String message) {
        super(message);
    }
}
