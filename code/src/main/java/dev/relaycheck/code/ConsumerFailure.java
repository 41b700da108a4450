package dev.relaycheck.code;

/**
 * What {@link Instance#deliver} throws where relaycheck makes the consumer fail, as a broker client throws when the
 * broker is unreachable or its acknowledgement never comes.
 */
public final class ConsumerFailure extends RuntimeException {
    public ConsumerFailure(String message) {
        super(message);
    }
}
