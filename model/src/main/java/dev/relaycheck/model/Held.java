package dev.relaycheck.model;

/** A row a poller believes it holds: the event and the fencing token its claim returned. */
public record Held(String eventId, long token) {
    @Override
    public String toString() {
        return eventId + "/t" + token;
    }
}
