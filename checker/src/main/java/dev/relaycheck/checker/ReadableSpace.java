package dev.relaycheck.checker;

import dev.relaycheck.model.Healing;
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
 * logic; a logic that breaks its contract (see {@link dev.relaycheck.model.CheckedLogic}) stops the expansion
 * of the state it failed in, and the expander says where ({@link Expander#failed}).
 */
public final class ReadableSpace implements StateSpace {
    private final RelayModel model;

    public ReadableSpace(RelayModel model) {
        this.model = model;
    }

    @Override
    public String engine() {
        return "readable";
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
        public void truncate(int size) {
            Arrays.fill(states, size, this.size, null);
            this.size = size;
        }
    }

    @Override
    public Expander expander() {
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
                    try {
                        r = model.applyEnabled(s, step);
                    } catch (LogicFailure f) {
                        failed = new Failed(f, LogicFault.Doing.TAKING_STEP, Optional.of(step));
                        return;
                    }
                    long fp = Fingerprint.of(r.state());
                    byte breaks = Successors.NONE;
                    if (!known.test(fp) && !Invariants.checkState(model.scenario(), r.state()).isEmpty()) {
                        breaks = Successors.BREAKS_STATE;
                    } else if (!Invariants.checkTransition(s, step, r).isEmpty()) {
                        breaks = Successors.BREAKS_TRANSITION;
                    }
                    out.add(r.state(), fp, breaks, Successors.witnessMask(r.outcome()));
                    if (breaks != Successors.NONE) {
                        return;
                    }
                }
            }

            @Override
            public boolean healingFailsFromLast() {
                try {
                    return Healing.check(model, last).isPresent();
                } catch (LogicFailure f) {
                    failed = new Failed(f, LogicFault.Doing.HEALING, Optional.empty());
                    return false;
                }
            }

            @Override
            public Optional<Failed> failed() {
                return Optional.ofNullable(failed);
            }
        };
    }
}
