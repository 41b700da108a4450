package dev.relaycheck.checker;

import dev.relaycheck.model.Healing;
import dev.relaycheck.model.Invariants;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.StepResult;

import java.util.List;
import java.util.function.LongPredicate;

/** The readable model as a search space: every transition builds a new immutable {@link RelayState}. Takes any logic. */
public final class ReadableSpace implements StateSpace<RelayState> {
    private final RelayModel model;

    public ReadableSpace(RelayModel model) {
        this.model = model;
    }

    @Override
    public String engine() {
        return "readable";
    }

    @Override
    public RelayState initial() {
        return model.initial();
    }

    @Override
    public long fingerprint(RelayState state) {
        return Fingerprint.of(state);
    }

    @Override
    public Expander<RelayState> expander() {
        return new Expander<>() {
            @Override
            public void expand(RelayState s, LongPredicate known, Successors<RelayState> out) {
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
            public boolean healingFails(RelayState s) {
                return Healing.check(model, s).isPresent();
            }
        };
    }

    /** The steps enabled in a state, for rebuilding a path from the choices the search stored. */
    List<Step> enabled(RelayState s) {
        return model.enabled(s);
    }
}
