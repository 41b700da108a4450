package dev.relaycheck.checker;

import java.util.function.LongPredicate;

/**
 * What the exhaustive search needs from a state space. {@link ReadableSpace} runs the readable model itself
 * and takes any logic; {@link dev.relaycheck.checker.packed.PackedSpace} runs a packed twin of it, many times
 * faster, for the logics it knows. Both list a state's successors in the order
 * {@link dev.relaycheck.model.RelayModel#enabled} lists their steps, so a counterexample is rebuilt, and
 * judged, on the readable model whichever space found it.
 *
 * @param <S> how the space holds one state
 */
public interface StateSpace<S> {

    /** "readable" or "packed", for reports. */
    String engine();

    S initial();

    long fingerprint(S state);

    /** A worker's view of the space; it may keep scratch buffers, so each thread takes its own. */
    Expander<S> expander();

    /** Expands states; not shared between threads. */
    interface Expander<S> {
        /**
         * Appends {@code state}'s successors to {@code out}, in step order, stopping after the first that
         * breaks an invariant. {@code known} tells which fingerprints the search has stored: every stored state
         * passed the state invariants, so they need not be judged again.
         */
        void expand(S state, LongPredicate known, Successors<S> out);

        /** Whether the EVENTUAL_DELIVERY healing run from {@code state} fails (or runs into a safety violation). */
        boolean healingFails(S state);
    }
}
