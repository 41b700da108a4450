package dev.relaycheck.checker.space;

import dev.relaycheck.checker.logic.LogicFault;
import dev.relaycheck.model.LogicFailure;
import dev.relaycheck.model.Step;

import java.util.List;
import java.util.Optional;
import java.util.function.LongPredicate;

/**
 * What the exhaustive search needs from a state space. {@link ReadableSpace} runs the readable model itself
 * and takes any logic; {@link dev.relaycheck.checker.packed.PackedSpace} runs a packed twin of it, many times
 * faster, for the logics it knows. Both list a state's successors in the order
 * {@link dev.relaycheck.model.RelayModel#enabled} lists their steps, so a counterexample is rebuilt, and
 * judged, on the readable model whichever space found it.
 */
public interface StateSpace {
    /** "readable" or "packed", for reports. */
    String engine();

    /** Whether it stores states with their tokens renumbered canonically ({@link CanonicalTokens}). */
    default boolean renumbersTokens() {
        return false;
    }

    /**
     * The choices of the path to a stored state (and, last, of its step to a successor) as the readable model takes
     * them from its initial state, each an index into the steps a state enables. A space that stores one state for
     * several (one per permutation of the pollers) turns its choices, made on the states it stores, into those of a
     * concrete path; {@code liveness}: the path is to end in a state whose healing run fails, not in one of the same
     * orbit that heals.
     */
    default List<Integer> concreteChoices(List<Integer> choices, boolean liveness) {
        return choices;
    }

    /** Words a packed state takes, or 0 for a space that holds its states as objects. */
    int wordsPerState();

    /** A level holding the initial state alone. */
    Level initial();

    /** An empty level. */
    Level newLevel();

    /**
     * A worker's view of the space, judging what {@code judging} says; it may keep scratch buffers, so each thread
     * takes its own.
     */
    Expander expander(Judging judging);

    /** The states of one depth of the search, in the order they were found. */
    interface Level {
        int size();

        long fingerprint(int i);

        /** Makes room for {@code count} more states at the end, to be filled by {@link #put}. */
        void extend(int count);

        /**
         * Puts successor {@code j} of {@code from} at {@code index}, within the room made. Workers fill
         * distinct indices at once.
         */
        void put(int index, Successors from, int j);

        /**
         * The greatest last-issued token of its states, for the search to see an exact space outgrow
         * {@link CanonicalTokens#exactBound}; 0 for a space whose encoding cannot hold such a token (the packed one
         * overflows first).
         */
        default long maxLastToken() {
            return 0;
        }

        /** Keeps its first {@code size} states (none: it serves the level after next), and its memory. */
        void truncate(int size);
    }

    /** Expands states; not shared between threads. */
    interface Expander {
        /**
         * Appends the successors of state {@code i} of {@code level} to {@code out}, in step order, stopping
         * after the first that breaks a judged invariant, unless the search goes on past violations: then it lists
         * them all, each with the invariants it broke. {@code known} tells which fingerprints the search has
         * stored, for a space that wants it: every stored state passed the state invariants, so they need not
         * be judged again. (Whether a successor is new the search finds out itself, afterwards, in batches.)
         */
        void expand(Level level, int i, LongPredicate known, Successors out);

        /**
         * What the EVENTUAL_DELIVERY healing run from the state the last {@link #expand} expanded did:
         * {@link Healing#HEALS}, {@link Healing#NEVER_COMPLETES} or {@link Healing#BREAKS_WHILE_HEALING} (a judged invariant). The search
         * heals only a state it has just expanded, so the expander still holds it: a packed one need not unpack it
         * again.
         */
        int healingFromLast();

        /** Healing runs whose verdict a memory of earlier runs gave, so far (0 for a space without one). */
        default long healingRunsRemembered() {
            return 0;
        }

        /**
         * Whether the logic under test failed (threw, or answered one question two ways) in the last
         * {@link #expand} or healing run: the expansion stopped there. A space whose logics are known to keep
         * their contract never says so.
         */
        default Optional<Failed> failed() {
            return Optional.empty();
        }
    }

    /** What the logic failed on, and what the expander was doing: listing steps, taking {@code step}, healing. */
    record Failed(LogicFailure failure, LogicFault.Doing doing, Optional<Step> step) {
    }
}
