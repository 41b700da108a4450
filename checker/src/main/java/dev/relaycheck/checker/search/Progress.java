package dev.relaycheck.checker.search;

/** Receives a search's counters now and then, for a progress line. Never shapes the search. */
@FunctionalInterface
public interface Progress {
    Progress NONE = (what, states, transitions, depth) -> { };

    void update(String what, long states, long transitions, int depth);
}
