package dev.relaycheck.checker.walk;

import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Step;

import java.util.List;

/**
 * Picks the next step of one seeded walk. One strategy a file; each instance serves one walk and draws every
 * choice from the {@link dev.relaycheck.model.SplitMix64} it was created with, so a seed fixes the walk.
 */
public interface Scheduler {

    /** Chooses one of {@code enabled} (never empty) in state {@code s}, at step {@code index} of the walk. */
    Step choose(RelayState s, List<Step> enabled, int index);

    /** Creates the scheduler for one walk. */
    interface Factory {
        /** Strategy name as the CLI spells it. */
        String name();

        Scheduler forWalk(long seed);
    }
}
