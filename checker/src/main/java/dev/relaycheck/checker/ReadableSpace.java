package dev.relaycheck.checker;

import dev.relaycheck.model.Healing;
import dev.relaycheck.model.Invariants;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.StepResult;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongPredicate;

/** The readable model as a search space: every transition builds a new immutable {@link RelayState}. Takes any logic. */
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
        level.states.add(model.initial());
        return level;
    }

    @Override
    public Level newLevel() {
        return new States();
    }

    /** A level as a list of states. */
    private static final class States implements Level {
        final List<RelayState> states = new ArrayList<>();

        @Override
        public int size() {
            return states.size();
        }

        @Override
        public long fingerprint(int i) {
            return Fingerprint.of(states.get(i));
        }

        @Override
        public void add(Successors from, int j) {
            states.add((RelayState) from.object(j));
        }
    }

    @Override
    public Expander expander() {
        return new Expander() {
            @Override
            public void expand(Level level, int i, LongPredicate known, Successors out) {
                RelayState s = ((States) level).states.get(i);
                for (Step step : model.enabled(s)) {
                    StepResult r = model.applyEnabled(s, step);
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
            public boolean healingFails(Level level, int i) {
                return Healing.check(model, ((States) level).states.get(i)).isPresent();
            }
        };
    }
}
