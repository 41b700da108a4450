package dev.relaycheck.checker.packed;

import dev.relaycheck.checker.space.CanonicalTokens;
import dev.relaycheck.checker.space.Successors;
import dev.relaycheck.model.CheckedLogic;
import dev.relaycheck.model.Healing;
import dev.relaycheck.model.Invariants;
import dev.relaycheck.model.LogicFailure;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.SplitMix64;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.StepResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Before a user's logic is trusted to the packed engine, seeded walks through both engines side by side: at
 * every state on the way, both list the same steps, and every step leads to equal states (or both say it
 * broke an invariant, of the same kind) with the same witnesses; now and then both heal alike. The packed
 * engine asks the logic through memoised tables keyed by what it believes each decision reads, so a belief
 * that is wrong for this logic (an overload it did not know the class overrides, an argument left out of a
 * key) shows here as a difference, named by the decision the step asks, before the search can call the
 * logic clean on the strength of it.
 */
final class AgreementProbe {
    /** Successors compared, all walks together: a few thousand, tens of milliseconds on the readable model. */
    static final int SUCCESSORS = 3000;
    /** Steps a walk takes before it starts again from the initial state. */
    private static final int DEPTH = 120;
    /**
     * Times a difference is asked again before it is reported: a logic whose answers change throws at one of
     * them (a coin keeps both its answers through all of them once in 4^16).
     */
    private static final int CONFIRMATIONS = 16;
    /** A state in this many on a walk is also healed on both engines. */
    private static final int HEAL_EVERY = 16;

    private AgreementProbe() {
    }

    /**
     * Where the two engines first disagree on {@code logic} (a user's, unwrapped) in {@code scenario}, as one
     * line; empty if they agree on every successor the walks compare. Each engine asks the logic through a
     * contract check of its own ({@link CheckedLogic}): had they shared one, an engine asking another overload
     * than the model would meet the model's remembered answer and read as a logic that changes its mind. A
     * logic that throws or breaks its contract on either engine ends the walks quietly: the search meets that
     * failure where it does and reports it as such. A difference found is asked again on fresh packed tables,
     * each engine's contract check remembering its first answers, so it is the engines that differ, not the
     * logic's answers from one asking to the next, before it is reported.
     */
    static Optional<String> disagreement(RelayLogic logic, Scenario scenario, long seed) {
        return disagreement(logic, logic, scenario, seed, false);
    }

    /**
     * {@link #disagreement(RelayLogic, Scenario, long)} for the packed engine with its tokens renumbered canonically
     * ({@code renumbered}) against the readable model with exact tokens: every packed state is the readable one
     * renumbered, every step the same but for its token's rank. A logic that reads a token's value (not only its
     * order and equality) answers differently on the two sooner or later, and is named here.
     */
    static Optional<String> disagreement(RelayLogic logic, Scenario scenario, long seed, boolean renumbered) {
        return disagreement(logic, logic, scenario, seed, renumbered);
    }

    static Optional<String> disagreement(RelayLogic logic, RelayLogic packedLogic, Scenario scenario, long seed) {
        return disagreement(logic, packedLogic, scenario, seed, false);
    }

    /**
     * {@link #disagreement(RelayLogic, Scenario, long)} with the packed engine given {@code packedLogic}: the same
     * logic, but where a test gives it another, to see the difference found and named.
     */
    private static Optional<String> disagreement(RelayLogic logic, RelayLogic packedLogic, Scenario scenario, long seed,
                                                 boolean renumbered) {
        RelayModel model = new RelayModel(CheckedLogic.of(logic), scenario);
        try {
            LogicTable.Shared table = new LogicTable.Shared(new RelayModel(CheckedLogic.of(packedLogic), scenario), renumbered);
            PackedLayout layout = new PackedLayout(scenario, table.layoutSpec());
            table.sizeFor(layout);
            ReadableView view = new ReadableView(scenario, table.logic, layout, table);
            Readable readable = new Readable(model, renumbered ? new CanonicalTokens(model.logic(), scenario) : null);
            Optional<Found> first = walk(readable, new PackedModel(table, layout), view, seed);
            for (int round = 0; first.isPresent() && round < CONFIRMATIONS; round++) {
                first = first.filter(f -> f.again(readable, new PackedModel(table, layout), view));
            }
            return first.map(f -> f.difference().line(model, renumbered));
        } catch (LogicFailure f) {
            return Optional.empty();
        }
    }

    /**
     * The readable model as the probe compares a packed state with it: exact tokens, renumbered canonically before a
     * comparison where the packed engine renumbers ({@code canonical} not null).
     */
    private record Readable(RelayModel model, CanonicalTokens canonical) {
        /** What a packed state is to be equal to. */
        RelayState compared(RelayState r) {
            return canonical == null ? r : canonical.canonical(r);
        }

        /** The steps as the packed engine lists them in the state compared with {@code r}: its tokens as ranks. */
        List<Step> compared(RelayState r, List<Step> steps) {
            if (canonical == null) {
                return steps;
            }
            RelayState c = canonical.canonical(r);
            List<Step> out = new ArrayList<>();
            for (Step step : steps) {
                out.add(withHeadToken(step, c, model.scenario()));
            }
            return out;
        }

        /** A poller's step with a token carries its head's: renumbered, the head's rank. */
        private static Step withHeadToken(Step step, RelayState c, Scenario scenario) {
            if (step instanceof Step.Deliver d) {
                return new Step.Deliver(d.poller(), d.eventId(), head(c, scenario, d.poller()));
            } else if (step instanceof Step.Ack a) {
                return new Step.Ack(a.poller(), a.eventId(), head(c, scenario, a.poller()));
            } else if (step instanceof Step.Release r) {
                return new Step.Release(r.poller(), r.eventId(), head(c, scenario, r.poller()));
            } else if (step instanceof Step.Renew r) {
                return new Step.Renew(r.poller(), r.eventId(), head(c, scenario, r.poller()));
            }
            return step;
        }

        private static long head(RelayState c, Scenario scenario, String poller) {
            return c.poller(scenario.pollerIndex(poller)).head().token();
        }
    }

    /** A difference, and the state of the walk (readable and packed) and the comparison that found it. */
    private record Found(Difference difference, RelayState r, int[] s, int only) {
        /** Whether the engines still differ there with a fresh packed model, so with the logic asked again. */
        boolean again(Readable readable, PackedModel packed, ReadableView view) {
            return compare(readable, packed, view, r, s, only, new ArrayList<>(), new ArrayList<>()) != null;
        }
    }

    /** A state where the engines differ, the decision that differs there, and how. */
    private record Difference(RelayState r, String decision, String what) {
        String line(RelayModel model, boolean renumbered) {
            return "the packed engine " + (renumbered ? "with tokens renumbered " : "") + "disagrees with the readable model on logic "
                    + model.logic().id() + "'s " + decision + " in scenario " + model.scenario().name() + ", at state "
                    + r.describe() + " (" + what + (renumbered ? "): the logic reads token values, not only their order, or a "
                    + "relaycheck bug; --tokens exact checks it on exact tokens" : "); a relaycheck bug: --engine readable checks the "
                    + "logic on the model itself");
        }
    }

    private static Optional<Found> walk(Readable readable, PackedModel packed, ReadableView view, long seed) {
        RelayModel model = readable.model();
        SplitMix64 random = new SplitMix64(seed);
        int compared = 0;
        while (compared < SUCCESSORS) {
            RelayState r = model.initial();
            int[] s = packed.initial();
            for (int depth = 0; depth < DEPTH && compared < SUCCESSORS; depth++) {
                List<int[]> clean = new ArrayList<>();
                List<RelayState> readableClean = new ArrayList<>();
                int only = depth % HEAL_EVERY == 0 ? -2 : -1;
                Difference d = compare(readable, packed, view, r, s, only, clean, readableClean);
                if (d != null) {
                    return Optional.of(new Found(d, r, s, only));
                }
                compared += Math.max(1, clean.size());
                if (clean.isEmpty()) {
                    break;
                }
                int pick = random.nextInt(clean.size());
                s = clean.get(pick);
                r = readableClean.get(pick);
            }
        }
        return Optional.empty();
    }

    /**
     * Compares the engines at readable state {@code r}, packed {@code s}: the steps listed, then the successor
     * by every step ({@code only} < 0) or by step {@code only} alone; with {@code only} = -2 also the healing
     * run. Adds the successors that break nothing to {@code clean}. Null where they agree.
     */
    private static Difference compare(Readable readable, PackedModel packed, ReadableView view, RelayState r, int[] s,
                                      int only, List<int[]> clean, List<RelayState> readableClean) {
        RelayModel model = readable.model();
        if (!view.state(s).equals(readable.compared(r))) {
            return new Difference(r, "state encoding", "packed holds " + view.state(s).describe());
        }
        int[] codes = new int[packed.at.maxSteps];
        List<Step> steps = model.enabled(r);
        int n = packed.enabled(s, codes, false);
        List<Step> packedSteps = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            packedSteps.add(packed.readableStep(s, codes[k]));
        }
        if (!packedSteps.equals(readable.compared(r, steps))) {
            return new Difference(r, enablingDecision(steps, packedSteps), "readable enables " + steps + ", packed " + packedSteps);
        }
        for (int k = only >= 0 ? only : 0; k < (only >= 0 ? only + 1 : n); k++) {
            Step step = steps.get(k);
            StepResult expected = model.applyEnabled(r, step);
            byte breaks = breaks(model, r, step, expected);
            int[] t = s.clone();
            int result = packed.apply(t, codes[k], packed.at.encode(s), 0);
            Difference d = difference(readable, view, r, step, expected, breaks, result, t);
            if (d != null) {
                return d;
            }
            if (breaks == Successors.NONE) {
                clean.add(t);
                readableClean.add(expected.state());
            }
        }
        return only == -2 && packed.healingFails(s) != Healing.check(model, r).isPresent() ? healing(readable, packed, view, r, s) : null;
    }

    /** What the readable model's step broke, in the search's terms. */
    private static byte breaks(RelayModel model, RelayState r, Step step, StepResult expected) {
        return !Invariants.checkState(model.scenario(), expected.state()).isEmpty() ? Successors.BREAKS_STATE
                : !Invariants.checkTransition(model.scenario(), model.logic().tokenPolicy(), r, step, expected).isEmpty()
                ? Successors.BREAKS_TRANSITION : Successors.NONE;
    }

    /** The difference between the engines' step from r (readable) and from a packed state that is {@code t} after it, or null. */
    private static Difference difference(Readable readable, ReadableView view, RelayState r, Step step,
                                         StepResult expected, byte breaks, int result, int[] t) {
        RelayState packedAfter = breaks == Successors.BREAKS_STATE ? null : view.state(t);
        RelayState readableAfter = readable.compared(expected.state());
        String differs = differs(breaks, expected, readableAfter, result, packedAfter);
        return differs == null ? null
                : new Difference(r, stepDecision(readable.model(), step, readableAfter, packedAfter), "after " + step + ": " + differs);
    }

    /**
     * The engines heal differently from r and s: the first step of the healing run (both schedule the fair
     * steps round-robin, ticking when none is enabled) where they part, named by its decision; the run
     * itself where every step agrees and only its verdict does not.
     */
    private static Difference healing(Readable readable, PackedModel packed, ReadableView view, RelayState r, int[] s) {
        RelayModel model = readable.model();
        Healing.Run run = Healing.run(model, r);
        RelayState at = r;
        int[] t = s.clone();
        int[] codes = new int[packed.at.maxSteps];
        int turn = 0;
        for (Step step : run.steps()) {
            List<Step> fair = model.enabledWithoutFaults(at);
            fair.removeIf(x -> x instanceof Step.Tick);
            int n = packed.enabled(t, codes, true);
            List<Step> packedFair = new ArrayList<>();
            for (int k = 0; k < n; k++) {
                packedFair.add(packed.readableStep(t, codes[k]));
            }
            if (!packedFair.equals(readable.compared(at, fair))) {
                return new Difference(at, enablingDecision(fair, packedFair), "healing from " + r.describe()
                        + ", readable enables " + fair + ", packed " + packedFair);
            }
            int code = n == 0 ? StepKinds.TICK << 4 : codes[turn++ % n];
            StepResult expected = model.applyEnabled(at, step);
            int result = packed.healingStep(t, code);
            Difference d = difference(readable, view, at, step, expected, breaks(model, at, step, expected), result, t);
            if (d != null) {
                return d;
            }
            at = expected.state();
        }
        return new Difference(r, "the healing run (EVENTUAL_DELIVERY)", "readable heals "
                + (run.violation().isEmpty() ? "" : "not ") + "from it in " + run.steps().size() + " steps, packed the other way");
    }

    /** How the packed step's result differs from the readable one's, or null where they agree. */
    private static String differs(byte breaks, StepResult expected, RelayState readableAfter, int result, RelayState packedAfter) {
        if (PackedModel.breaks(result) != breaks) {
            return "readable " + brokeWhat(breaks) + ", packed " + brokeWhat(PackedModel.breaks(result));
        }
        if (PackedModel.witnesses(result) != Successors.witnessMask(expected.outcome())) {
            return "readable shows " + expected.outcome() + ", packed witnesses " + Integer.toBinaryString(PackedModel.witnesses(result));
        }
        if (packedAfter != null && !packedAfter.equals(readableAfter)) {
            return "readable leads to " + readableAfter.describe() + ", packed to " + packedAfter.describe();
        }
        return null;
    }

    private static String brokeWhat(byte breaks) {
        return breaks == Successors.NONE ? "breaks nothing" : breaks == Successors.BREAKS_STATE ? "breaks a state invariant"
                : "breaks a transition invariant";
    }

    /** The decision that decides which steps a state enables, where the two lists differ. */
    private static String enablingDecision(List<Step> readable, List<Step> packed) {
        List<Step> apart = new ArrayList<>(readable);
        apart.removeAll(packed);
        List<Step> extra = new ArrayList<>(packed);
        extra.removeAll(readable);
        apart.addAll(extra);
        if (apart.stream().anyMatch(x -> x instanceof Step.Claim)) {
            return "isClaimable";
        }
        if (apart.stream().anyMatch(x -> x instanceof Step.Purge)) {
            return "markerRetention";
        }
        return "the steps it enables";
    }

    /** The decision step {@code step} asks that made the two engines' successors differ. */
    private static String stepDecision(RelayModel model, Step step, RelayState readable, RelayState packed) {
        if (step instanceof Step.Claim) {
            if (packed == null) {
                return "isClaimable, issueToken or leaseExpiry";
            }
            for (OutboxRow row : readable.rows()) {
                Optional<OutboxRow> other = packed.row(row.id());
                if (other.isEmpty() || row.hasLease() != other.get().hasLease()
                        || row.hasLease() && !row.lease().owner().equals(other.get().lease().owner())) {
                    return "isClaimable";
                }
                if (row.hasLease() && row.lease().token() != other.get().lease().token()) {
                    return "issueToken";
                }
                if (row.hasLease() && row.lease().expiry() != other.get().lease().expiry()) {
                    return "leaseExpiry";
                }
            }
            return "isClaimable";
        }
        if (step instanceof Step.Deliver) {
            boolean rowsAgree = packed != null && Objects.equals(readable.rows(), packed.rows());
            return rowsAgree || !model.logic().deliversAndAcksTogether() ? "dedupKey" : "acceptsAck";
        }
        if (step instanceof Step.Ack) {
            return "acceptsAck";
        }
        if (step instanceof Step.Release) {
            return "acceptsRelease";
        }
        if (step instanceof Step.Renew) {
            return "acceptsRenewal";
        }
        if (step instanceof Step.Purge) {
            return "markerRetention";
        }
        return "the step " + step.getClass().getSimpleName();
    }
}
