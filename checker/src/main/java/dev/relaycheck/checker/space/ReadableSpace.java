package dev.relaycheck.checker.space;

import dev.relaycheck.checker.logic.LogicFault;
import dev.relaycheck.model.Healing;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Invariants;
import dev.relaycheck.model.LogicFailure;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.StepResult;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.LongPredicate;

/**
 * The readable model as a search space: every transition builds a new immutable {@link RelayState}. Takes any
 * logic. With tokens renumbered ({@link CanonicalTokens}) it stores each successor with its tokens replaced by
 * their ranks, so states that differ only in token values are one state. It judges the invariants a search asks
 * for, and can expand a state that breaks one it does not judge. A logic that breaks its contract (see
 * {@link dev.relaycheck.model.CheckedLogic}) stops the expansion of the state it failed in, and the expander
 * says where ({@link Expander#failed}).
 */
public final class ReadableSpace implements StateSpace {
    private final RelayModel model;
    private final CanonicalTokens canonical; // null: tokens kept exact

    public ReadableSpace(RelayModel model) {
        this(model, false);
    }

    public ReadableSpace(RelayModel model, boolean renumberTokens) {
        this.model = model;
        this.canonical = renumberTokens ? new CanonicalTokens(model.logic(), model.scenario()) : null;
    }

    @Override
    public String engine() {
        return "readable";
    }

    @Override
    public boolean renumbersTokens() {
        return canonical != null;
    }

    @Override
    public int wordsPerState() {
        return 0;
    }

    @Override
    public Level initial() {
        States level = new States();
        level.extend(1);
        level.states[0] = model.initial();
        return level;
    }

    @Override
    public Level newLevel() {
        return new States();
    }

    /** A level as an array of states. */
    private static final class States implements Level {
        RelayState[] states = new RelayState[16];
        int size;

        @Override
        public int size() {
            return size;
        }

        @Override
        public long fingerprint(int i) {
            return Fingerprint.of(states[i]);
        }

        @Override
        public void extend(int count) {
            size += count;
            if (size > states.length) {
                states = Arrays.copyOf(states, Math.max(size, 2 * states.length));
            }
        }

        @Override
        public void put(int index, Successors from, int j) {
            states[index] = (RelayState) from.object(j);
        }

        @Override
        public long maxLastToken() {
            long max = 0;
            for (int i = 0; i < size; i++) {
                max = Math.max(max, states[i].lastToken());
            }
            return max;
        }

        @Override
        public void truncate(int size) {
            Arrays.fill(states, size, this.size, null);
            this.size = size;
        }
    }

    @Override
    public Expander expander(Judging judging) {
        boolean every = judging.everyInvariant();
        return new Expander() {
            private RelayState last;
            private Failed failed;

            @Override
            public void expand(Level level, int i, LongPredicate known, Successors out) {
                RelayState s = ((States) level).states[i];
                last = s;
                failed = null;
                List<Step> steps;
                try {
                    steps = model.enabled(s);
                } catch (LogicFailure f) {
                    failed = new Failed(f, LogicFault.Doing.LISTING_STEPS, Optional.empty());
                    return;
                }
                for (Step step : steps) {
                    StepResult r;
                    RelayState stored;
                    try {
                        r = model.applyEnabled(s, step);
                        stored = canonical == null ? r.state() : canonical.canonical(r.state()); // may ask dedupKey
                    } catch (LogicFailure f) {
                        failed = new Failed(f, LogicFault.Doing.TAKING_STEP, Optional.of(step));
                        return;
                    }
                    long fp = Fingerprint.of(stored);
                    byte breaks = Successors.NONE;
                    // a stored state passed the state invariants judged, so one the search holds is not judged again
                    int broken = known.test(fp) ? 0 : judging.maskOf(Invariants.checkState(model.scenario(), stored));
                    if (broken != 0) {
                        breaks = Successors.BREAKS_STATE;
                    }
                    if (broken == 0 || every) { // a search that goes on past violations names every invariant broken
                        int transition = judging.maskOf(Invariants.checkTransition(model.scenario(),
                                model.logic().tokenPolicy(), s, step, r));
                        broken |= transition;
                        if (transition != 0 && breaks == Successors.NONE) {
                            breaks = Successors.BREAKS_TRANSITION;
                        }
                    }
                    out.add(stored, fp, breaks, Successors.witnessMask(r.outcome()), broken);
                    if (breaks != Successors.NONE && !every) {
                        return;
                    }
                }
            }

            @Override
            public int healingFromLast() {
                try {
                    return Healing.check(model, last, judging.invariants())
                            .map(v -> v.invariant() == Invariant.EVENTUAL_DELIVERY ? HealingOutcome.NEVER_COMPLETES : HealingOutcome.BREAKS_WHILE_HEALING)
                            .orElse(HealingOutcome.HEALS);
                } catch (LogicFailure f) {
                    failed = new Failed(f, LogicFault.Doing.HEALING, Optional.empty());
                    return HealingOutcome.HEALS;
                }
            }

            @Override
            public Optional<Failed> failed() {
                return Optional.ofNullable(failed);
            }
        };
    }
}
