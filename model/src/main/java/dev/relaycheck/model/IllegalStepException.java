package dev.relaycheck.model;

/** A step that is not enabled in the state it was applied to (a replay that diverged, or a bad schedule). */
public class IllegalStepException extends RuntimeException {
    public IllegalStepException(String message) {
        super(message);
    }
}
