package dev.relaycheck.code;

/** The relay's poll method, as relaycheck calls it: one pass of the relay (claim, deliver, mark), e.g. {@code relay::pollOnce}. */
@FunctionalInterface
public interface Poller {
    void poll() throws Exception;
}
