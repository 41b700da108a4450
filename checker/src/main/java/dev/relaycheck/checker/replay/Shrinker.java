package dev.relaycheck.checker.replay;

import dev.relaycheck.checker.logic.LogicFault;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.Healing;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Invariants;
import dev.relaycheck.model.LogicFailure;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.StepResult;
import dev.relaycheck.model.Violation;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Minimises a failing schedule while it still breaks the same invariant: first each fault alone, then
 * delta debugging (ddmin, Zeller 2002) over the steps, then scenarios with one poller or one event fewer,
 * repeated until nothing more can go. A candidate runs "fuzzily": a step whose token no longer matches
 * (tokens shift when earlier claims go) runs as the same actor's same step with the current token, and a
 * step that is no longer possible at all is dropped; the steps that actually ran become the new schedule. A
 * candidate on which the logic under test fails (it throws, or changes an answer) ends the shrinking with
 * {@link LogicFailed}: that schedule shows the failure.
 */
public final class Shrinker {
    private static final int MAX_ATTEMPTS = 20_000;

    private Shrinker() {
    }

    /** A shrunk counterexample: possibly a smaller scenario, and the schedule. */
    public record Shrunk(Scenario scenario, List<Step> path) {
    }

    public static Shrunk shrink(RelayLogic logic, Scenario scenario, List<Step> path, Invariant target) {
        int[] attempts = {0};
        Scenario sc = scenario;
        List<Step> cur = reproduce(logic, sc, path, target).orElse(path);
        boolean progress = true;
        while (progress && attempts[0] < MAX_ATTEMPTS) {
            progress = false;
            List<Step> fewerFaults = dropFaults(logic, sc, cur, target, attempts);
            List<Step> minimal = ddmin(logic, sc, fewerFaults, target, attempts);
            progress = minimal.size() < cur.size();
            cur = minimal;
            Optional<Shrunk> smaller = smallerScenario(logic, sc, cur, target, attempts);
            if (smaller.isPresent()) {
                sc = smaller.get().scenario();
                cur = smaller.get().path();
                progress = true;
            }
        }
        return new Shrunk(sc, cur);
    }

    private static List<Step> dropFaults(RelayLogic logic, Scenario sc, List<Step> cur, Invariant target, int[] attempts) {
        for (int i = cur.size() - 1; i >= 0; i--) {
            if (i < cur.size() && cur.get(i).isFault()) {
                List<Step> candidate = new ArrayList<>(cur);
                candidate.remove(i);
                attempts[0]++;
                Optional<List<Step>> r = reproduce(logic, sc, candidate, target);
                if (r.isPresent() && r.get().size() < cur.size()) {
                    cur = r.get();
                }
            }
        }
        return cur;
    }

    private static List<Step> ddmin(RelayLogic logic, Scenario sc, List<Step> cur, Invariant target, int[] attempts) {
        int n = 2;
        while (cur.size() >= 2 && attempts[0] < MAX_ATTEMPTS) {
            int chunk = (cur.size() + n - 1) / n;
            boolean reduced = false;
            for (int start = 0; start < cur.size(); start += chunk) {
                List<Step> candidate = new ArrayList<>(cur.subList(0, start));
                candidate.addAll(cur.subList(Math.min(cur.size(), start + chunk), cur.size()));
                attempts[0]++;
                Optional<List<Step>> r = reproduce(logic, sc, candidate, target);
                if (r.isPresent() && r.get().size() < cur.size()) {
                    cur = r.get();
                    n = Math.max(n - 1, 2);
                    reduced = true;
                    break;
                }
            }
            if (!reduced) {
                if (n >= cur.size()) {
                    break;
                }
                n = Math.min(n * 2, cur.size());
            }
        }
        return cur;
    }

    private static Optional<Shrunk> smallerScenario(RelayLogic logic, Scenario sc, List<Step> cur, Invariant target,
                                                    int[] attempts) {
        for (int p = sc.pollers().size() - 1; p >= 0 && sc.pollers().size() > 1; p--) {
            String gone = sc.pollers().get(p);
            List<String> pollers = new ArrayList<>(sc.pollers());
            pollers.remove(p);
            Scenario smaller = with(sc, pollers, sc.events());
            List<Step> candidate = cur.stream().filter(s -> !s.actor().equals(gone)).toList();
            attempts[0]++;
            Optional<List<Step>> r = reproduce(logic, smaller, candidate, target);
            if (r.isPresent()) {
                return Optional.of(new Shrunk(smaller, r.get()));
            }
        }
        for (int e = sc.events().size() - 1; e >= 0 && sc.events().size() > 1; e--) {
            String gone = sc.events().get(e).id();
            List<Event> events = new ArrayList<>(sc.events());
            events.remove(e);
            Scenario smaller = with(sc, sc.pollers(), events);
            List<Step> candidate = cur.stream().filter(s -> !s.eventId().equals(gone)).toList();
            attempts[0]++;
            Optional<List<Step>> r = reproduce(logic, smaller, candidate, target);
            if (r.isPresent()) {
                return Optional.of(new Shrunk(smaller, r.get()));
            }
        }
        return Optional.empty();
    }

    private static Scenario with(Scenario sc, List<String> pollers, List<Event> events) {
        String name = sc.name().endsWith(".shrunk") ? sc.name() : sc.name() + ".shrunk";
        return new Scenario(name, sc.description(), pollers, events, sc.initialStock(), sc.batch(), sc.leaseTicks(),
                sc.tickBound(), sc.maxCrashes(), sc.maxLostAcks(), sc.maxDeliverFails(), sc.maxProduceFails(),
                sc.producedDuringRun(), sc.requiredWitnesses());
    }

    /**
     * Runs {@code candidate} fuzzily; returns the steps that ran if they break {@code target} (on the way, or
     * in the healing phase after), else empty. A different invariant breaking first does not count.
     */
    public static Optional<List<Step>> reproduce(RelayLogic logic, Scenario sc, List<Step> candidate, Invariant target) {
        RelayModel model = new RelayModel(logic, sc);
        RelayState s = model.initial();
        List<Step> ran = new ArrayList<>();
        Step taking = null;
        boolean inHealing = false;
        try {
            for (Step wanted : candidate) {
                taking = null;
                List<Step> enabled = model.enabled(s);
                Step step = enabled.contains(wanted) ? wanted : sameIntent(enabled, wanted);
                if (step == null) {
                    continue;
                }
                taking = step;
                StepResult r = model.applyEnabled(s, step);
                ran.add(step);
                List<Violation> v = Invariants.check(sc, logic.tokenPolicy(), s, step, r);
                s = r.state();
                if (!v.isEmpty()) {
                    return v.get(0).invariant() == target ? Optional.of(ran) : Optional.empty();
                }
            }
            taking = null;
            inHealing = true;
            Optional<Violation> healing = Healing.check(model, s);
            return healing.isPresent() && healing.get().invariant() == target ? Optional.of(ran) : Optional.empty();
        } catch (LogicFailure f) {
            throw new LogicFailed(LogicFault.of(model, ran, taking != null ? LogicFault.Doing.TAKING_STEP
                    : inHealing ? LogicFault.Doing.HEALING : LogicFault.Doing.LISTING_STEPS, Optional.ofNullable(taking), f,
                    java.util.OptionalLong.empty(), "shrinking"));
        }
    }

    /**
     * The logic under test failed on a schedule the shrinker tried (a valid schedule of the scenario, possibly
     * made smaller): that is what to report, not the violation being shrunk.
     */
    public static final class LogicFailed extends RuntimeException {
        private final transient LogicFault fault;

        public LogicFailed(LogicFault fault) {
            super(fault.failure().line(), null, false, false);
            this.fault = fault;
        }

        public LogicFault fault() {
            return fault;
        }
    }

    /** The enabled step of the same kind, actor and event as {@code wanted}, ignoring the token. */
    private static Step sameIntent(List<Step> enabled, Step wanted) {
        for (Step s : enabled) {
            if (s.getClass() == wanted.getClass() && s.actor().equals(wanted.actor())
                    && s.eventId().equals(wanted.eventId())) {
                return s;
            }
        }
        return null;
    }
}
