package dev.relaycheck.checker.packed;

import dev.relaycheck.checker.space.Successors;
import dev.relaycheck.model.CheckedLogic;
import dev.relaycheck.model.Invariants;
import dev.relaycheck.model.Lease;
import dev.relaycheck.model.LogicFailure;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.PollerState;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.SplitMix64;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.StepResult;
import dev.relaycheck.model.Surroundings;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * Symmetry over pollers: where pollers are interchangeable, a state and the same state with its pollers permuted
 * (lease owners renamed with them) have the same future up to that renaming, so the search keeps one of them: the
 * one with its pollers in canonical order ({@link PackedModel#canonicalOrder}). Safety verdicts carry over as they
 * are (every invariant is blind to names). EVENTUAL_DELIVERY's healing run is not: it schedules the pollers
 * round-robin in scenario order, so it may heal one member of an orbit and not another; the search heals every
 * distinct member of an orbit it heals ({@link PackedModel#firstMemberFailingHealing}), as the full search would heal
 * each, and a failure is reported on the member that fails, its path renamed to end there.
 *
 * <p>Pollers are interchangeable when the scenario gives each its own instance id and no clock skew (skews are
 * chosen poller by poller), and the logic's decisions do not depend on which poller asks. A logic that is never told
 * the poller (it keeps the interface's defaults of the overloads that get it) cannot depend on it; one that is told
 * it is probed: on seeded walks through the readable model, swapping two pollers of a state must swap its steps and
 * their outcomes and nothing else ({@link #asymmetry}). At most {@link #MOST_POLLERS} pollers, whose orbits are
 * small enough to heal whole.
 */
final class PollerSymmetry {
    static final int MOST_POLLERS = 4;
    private static final int SUCCESSORS = 3000;
    private static final int DEPTH = 80;

    private PollerSymmetry() {
    }

    /** Why the pollers of {@code model} are not interchangeable, as words for the engine's note; "" when they are. */
    static String whyNot(RelayModel model) {
        Scenario s = model.scenario();
        if (s.pollers().size() < 2) {
            return "one poller";
        }
        if (s.pollers().size() > MOST_POLLERS) {
            return "more than " + MOST_POLLERS + " pollers (each state's permutations are healed one by one)";
        }
        if (s.instanceIds() != Scenario.InstanceIds.UNIQUE) {
            return "pollers present shared instance ids (instance-ids " + s.instanceIds().text() + ")";
        }
        if (s.maxSkew() > 0) {
            return "each poller's clock skew is chosen in turn";
        }
        if (!namesPoller(model.logic())) {
            return "";
        }
        long seed = (long) model.logic().id().hashCode() << 32 ^ s.name().hashCode();
        return asymmetry(CheckedLogic.unwrap(model.logic()), s, seed).orElse("");
    }

    /** Whether any decision of {@code logic} is told which poller asks and may read it. */
    private static boolean namesPoller(RelayLogic logic) {
        Class<?> user = CheckedLogic.unwrap(logic).getClass();
        RelayLogic unwrapped = CheckedLogic.unwrap(logic);
        return LogicTable.Shared.readsContext(user, "isClaimable") || LogicTable.Shared.readsContext(user, "issueToken")
                || LogicTable.Shared.readsContext(user, "acceptsAck") || LogicTable.Shared.readsContext(user, "acceptsRelease")
                || LogicTable.overrides(unwrapped, "acceptsRenewal") || LogicTable.overrides(unwrapped, "rowsAckTouches");
    }

    /**
     * Where swapping two pollers of a state on seeded walks through the readable model does not swap its steps and
     * their outcomes, as one line; empty where it always does. A logic that throws ends the walks quietly (the
     * search reports the throw where it meets it).
     */
    static Optional<String> asymmetry(RelayLogic logic, Scenario scenario, long seed) {
        RelayModel model = new RelayModel(CheckedLogic.of(logic), scenario);
        SplitMix64 random = new SplitMix64(seed);
        try {
            int compared = 0;
            while (compared < SUCCESSORS) {
                RelayState r = model.initial();
                for (int depth = 0; depth < DEPTH && compared < SUCCESSORS; depth++) {
                    List<Step> steps = model.enabled(r);
                    for (int i = 0; i < scenario.pollers().size(); i++) {
                        for (int j = i + 1; j < scenario.pollers().size(); j++) {
                            Optional<String> d = differs(model, r, steps, swap(scenario, i, j));
                            if (d.isPresent()) {
                                return Optional.of("logic " + logic.id() + "'s decisions depend on which poller asks ("
                                        + d.get() + ")");
                            }
                        }
                    }
                    compared += steps.size();
                    List<RelayState> clean = new ArrayList<>();
                    for (Step step : steps) {
                        StepResult next = model.applyEnabled(r, step);
                        if (breaks(model, r, step, next) == Successors.NONE) {
                            clean.add(next.state());
                        }
                    }
                    if (clean.isEmpty()) {
                        break;
                    }
                    r = clean.get(random.nextInt(clean.size()));
                }
            }
            return Optional.empty();
        } catch (LogicFailure f) {
            return Optional.empty();
        }
    }

    /** Where renaming by {@code names} does not commute with the steps of {@code r}, or empty. */
    private static Optional<String> differs(RelayModel model, RelayState r, List<Step> steps, UnaryOperator<String> names) {
        RelayState swapped = rename(model.scenario(), r, names);
        List<Step> expected = steps.stream().map(step -> rename(step, names)).toList();
        List<Step> listed = model.enabled(swapped);
        if (!new HashSet<>(listed).equals(new HashSet<>(expected))) {
            return Optional.of("in " + r.describe() + " it enables " + steps + ", with two pollers swapped " + listed);
        }
        for (Step step : steps) {
            StepResult a = model.applyEnabled(r, step);
            StepResult b = model.applyEnabled(swapped, rename(step, names));
            if (!b.state().equals(rename(model.scenario(), a.state(), names)) || Successors.witnessMask(a.outcome()) != Successors.witnessMask(b.outcome())
                    || breaks(model, r, step, a) != breaks(model, swapped, rename(step, names), b)) {
                return Optional.of("in " + r.describe() + ", " + step + " leads to " + a.state().describe()
                        + ", with two pollers swapped to " + b.state().describe());
            }
        }
        return Optional.empty();
    }

    private static byte breaks(RelayModel model, RelayState r, Step step, StepResult next) {
        return !Invariants.checkState(model.scenario(), next.state()).isEmpty() ? Successors.BREAKS_STATE
                : !Invariants.checkTransition(model.scenario(), model.logic().tokenPolicy(), r, step, next).isEmpty()
                ? Successors.BREAKS_TRANSITION : Successors.NONE;
    }

    /** Swaps the names of pollers i and j (with unique instance ids, a poller's name is its owner name too). */
    private static UnaryOperator<String> swap(Scenario scenario, int i, int j) {
        String a = scenario.pollers().get(i);
        String b = scenario.pollers().get(j);
        return name -> name.equals(a) ? b : name.equals(b) ? a : name;
    }

    /** {@code s} with its pollers renamed by {@code names}: each poller's state moves, and every lease owner with it. */
    static RelayState rename(Scenario scenario, RelayState s, UnaryOperator<String> names) {
        List<OutboxRow> rows = new ArrayList<>();
        for (OutboxRow r : s.rows()) {
            rows.add(r.hasLease() ? r.withLease(new Lease(names.apply(r.lease().owner()), r.lease().token(), r.lease().expiry(),
                    r.lease().clockSkew())) : r);
        }
        PollerState[] pollers = new PollerState[s.pollers().size()];
        List<String> order = scenario.pollers();
        for (int p = 0; p < pollers.length; p++) {
            pollers[order.indexOf(names.apply(order.get(p)))] = s.poller(p);
        }
        Surroundings h = s.surroundings();
        TreeMap<String, String> cleaned = new TreeMap<>();
        for (Map.Entry<String, String> e : h.cleanedUp().entrySet()) {
            String v = e.getValue();
            for (String name : order) {
                if (v.contains("leased to " + name + " ")) {
                    v = v.replace("leased to " + name + " ", "leased to " + names.apply(name) + " ");
                    break;
                }
            }
            cleaned.put(e.getKey(), v);
        }
        Surroundings renamed = new Surroundings(h.renewals(), h.skews(), h.inFlight(), h.cursor(), h.passedOver(), cleaned);
        return new RelayState(s.clock(), s.lastToken(), rows, s.businessWrites(), s.consumer(), List.of(pollers), s.producer(),
                s.faults(), renamed);
    }

    /** A step with its poller renamed by {@code names}. */
    static Step rename(Step step, UnaryOperator<String> names) {
        if (step instanceof Step.Claim c) {
            return new Step.Claim(names.apply(c.poller()));
        } else if (step instanceof Step.Deliver d) {
            return new Step.Deliver(names.apply(d.poller()), d.eventId(), d.token());
        } else if (step instanceof Step.Ack a) {
            return new Step.Ack(names.apply(a.poller()), a.eventId(), a.token());
        } else if (step instanceof Step.Release r) {
            return new Step.Release(names.apply(r.poller()), r.eventId(), r.token());
        } else if (step instanceof Step.Crash c) {
            return new Step.Crash(names.apply(c.poller()));
        } else if (step instanceof Step.LoseAck l) {
            return new Step.LoseAck(names.apply(l.poller()), l.eventId());
        } else if (step instanceof Step.DeliverFails f) {
            return new Step.DeliverFails(names.apply(f.poller()), f.eventId());
        } else if (step instanceof Step.Renew r) {
            return new Step.Renew(names.apply(r.poller()), r.eventId(), r.token());
        }
        return step;
    }
}
