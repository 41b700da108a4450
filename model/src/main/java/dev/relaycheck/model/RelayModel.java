package dev.relaycheck.model;

import dev.relaycheck.model.PollerState.Phase;
import dev.relaycheck.model.RelayLogic.ClaimShape;
import dev.relaycheck.model.RelayLogic.ProducerShape;
import dev.relaycheck.model.Step.Ack;
import dev.relaycheck.model.Step.Begin;
import dev.relaycheck.model.Step.Claim;
import dev.relaycheck.model.Step.Cleanup;
import dev.relaycheck.model.Step.Commit;
import dev.relaycheck.model.Step.Crash;
import dev.relaycheck.model.Step.Deliver;
import dev.relaycheck.model.Step.DeliverFails;
import dev.relaycheck.model.Step.LoseAck;
import dev.relaycheck.model.Step.Produce;
import dev.relaycheck.model.Step.ProduceFails;
import dev.relaycheck.model.Step.Purge;
import dev.relaycheck.model.Step.Release;
import dev.relaycheck.model.Step.Renew;
import dev.relaycheck.model.Step.Skew;
import dev.relaycheck.model.Step.Tick;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The step semantics of one logic in one scenario: the initial state, which steps are enabled in a state,
 * and the pure transition function. {@link #enabled} is what a search enumerates: it is complete (every
 * step that changes the state is listed) and deterministic (same state, same list, same order: producer,
 * then each poller in scenario order, then the clock, then the cleanup jobs, then faults).
 */
public final class RelayModel {
    private final RelayLogic logic;
    private final Scenario scenario;
    private final int maxTicks;

    public RelayModel(RelayLogic logic, Scenario scenario) {
        this.logic = logic;
        this.scenario = scenario;
        this.maxTicks = scenario.maxTicks(logic);
    }

    public RelayLogic logic() {
        return logic;
    }

    public Scenario scenario() {
        return scenario;
    }

    /** The clock bound of this search: the scenario's tick bound resolved against the lease the logic grants. */
    public int maxTicks() {
        return maxTicks;
    }

    /** The lease the logic grants a claim at tick 0 in this scenario (what the clock and healing are sized by). */
    public int grantedLease() {
        return scenario.grantedLease(logic);
    }

    public RelayState initial() {
        return RelayState.initial(scenario);
    }

    /** Steps that may be taken in {@code s}, faults included; steps that would change nothing are left out. */
    public List<Step> enabled(RelayState s) {
        List<Step> steps = new ArrayList<>();
        if (skewsToChoose(s)) {
            addSkewSteps(s, steps); // the clocks are chosen first: nothing else happens before
            return steps;
        }
        addProducerSteps(s, steps);
        for (int i = 0; i < s.pollers().size(); i++) {
            addPollerStep(s, i, steps);
        }
        for (int i = 0; i < s.pollers().size(); i++) {
            addRenewal(s, i, steps);
        }
        if (s.clock() < maxTicks) {
            steps.add(new Tick());
        }
        addPurgeSteps(s, steps);
        if (scenario.cleanup() && !RelayTransactions.cleanupTakes(logic, s).isEmpty()) {
            steps.add(new Cleanup());
        }
        for (int i = 0; i < s.pollers().size(); i++) {
            addPollerFaults(s, i, steps);
        }
        return steps;
    }

    // ---------------- retention, ack scope, result

    /**
     * Whether the consumer stamps each marker with the tick it was written: where the logic's retention policy
     * can purge markers, or where the scenario requires {@link Witness#LATE_REDELIVERY} (which needs a marker's
     * age). Everywhere else markers stay undated, so those searches keep their state spaces and counts.
     */
    public boolean datesMarkers() {
        return logic.markerRetention(scenario.leaseTicks()).isPresent()
                || scenario.requiredWitnesses().contains(Witness.LATE_REDELIVERY);
    }

    /** One Purge step per event (in id order) with a marker older than the retention: the consumer's cleanup job. */
    private void addPurgeSteps(RelayState s, List<Step> steps) {
        OptionalInt retention = logic.markerRetention(scenario.leaseTicks());
        if (retention.isEmpty()) {
            return;
        }
        java.util.TreeSet<String> due = new java.util.TreeSet<>();
        for (Map.Entry<String, String> m : s.consumer().markers().entrySet()) {
            int at = s.consumer().writtenAt(m.getKey());
            if (at >= 0 && s.clock() - at >= retention.getAsInt()) {
                due.add(m.getValue());
            }
        }
        due.forEach(id -> steps.add(new Purge(id)));
    }

    /** The cleanup deletes every marker of the event that is past the retention. */
    private StepResult purge(RelayState s, Purge step) {
        int retention = logic.markerRetention(scenario.leaseTicks()).orElseThrow();
        RelayState next = s;
        Outcome.Purged first = null;
        for (Map.Entry<String, String> m : s.consumer().markers().entrySet()) {
            int at = s.consumer().writtenAt(m.getKey());
            if (m.getValue().equals(step.eventId()) && at >= 0 && s.clock() - at >= retention) {
                next = next.withConsumer(next.consumer().withoutMarker(m.getKey()));
                if (first == null) {
                    first = new Outcome.Purged(step.eventId(), m.getKey(), at, s.clock());
                }
            }
        }
        return new StepResult(next, first);
    }

    /** Stamps the markers the consumer transaction just wrote with the clock (dated markers only). */
    private StepResult dateNewMarkers(RelayState before, StepResult r) {
        ConsumerState c = r.state().consumer();
        ConsumerState dated = c;
        for (Map.Entry<String, String> m : c.markers().entrySet()) {
            if (!before.consumer().hasMarkerKey(m.getKey())) {
                dated = dated.withDatedMarker(m.getKey(), m.getValue(), before.clock());
            }
        }
        Outcome o = r.outcome();
        if (o instanceof Outcome.Duplicate d && scenario.requiredWitnesses().contains(Witness.LATE_REDELIVERY)) {
            int age = markerAge(before, d.eventId());
            if (age > grantedLease()) {
                o = new Outcome.LateDuplicate(d.eventId(), age);
            }
        }
        return new StepResult(dated == c ? r.state() : r.state().withConsumer(dated), o);
    }

    /** Ticks since the oldest dated marker of {@code eventId} was written, or -1. */
    private static int markerAge(RelayState s, String eventId) {
        int oldest = -1;
        for (Map.Entry<String, String> m : s.consumer().markers().entrySet()) {
            int at = s.consumer().writtenAt(m.getKey());
            if (m.getValue().equals(eventId) && at >= 0 && (oldest < 0 || at < oldest)) {
                oldest = at;
            }
        }
        return oldest < 0 ? -1 : s.clock() - oldest;
    }

    /** Steps a fault-free, fair run may take: {@link #enabled} without the faults. */
    public List<Step> enabledWithoutFaults(RelayState s) {
        List<Step> steps = enabled(s);
        steps.removeIf(Step::isFault);
        return steps;
    }

    /** In a scenario with clock skew, the pollers whose skew the search has not chosen yet. */
    private boolean skewsToChoose(RelayState s) {
        return scenario.maxSkew() > 0 && s.surroundings().skews().size() < scenario.pollers().size();
    }

    /** One step per skew the next poller's clock may have, in [-maxSkew, maxSkew]. */
    private void addSkewSteps(RelayState s, List<Step> steps) {
        String name = scenario.pollers().get(s.surroundings().skews().size());
        for (int v = -scenario.maxSkew(); v <= scenario.maxSkew(); v++) {
            steps.add(new Skew(name, v));
        }
    }

    /** A poller working on the head of its batch may renew its lease while renewals are left. */
    private void addRenewal(RelayState s, int i, List<Step> steps) {
        PollerState p = s.poller(i);
        if ((p.phase() == Phase.TO_DELIVER || p.phase() == Phase.TO_ACK) && s.surroundings().renewals() < scenario.maxRenewals()) {
            steps.add(new Renew(scenario.pollers().get(i), p.head().eventId(), p.head().token()));
        }
    }

    /** The instance id poller {@code i} presents to the database and to every decision ({@link Scenario#instanceId}). */
    private String instanceId(int i) {
        return scenario.instanceId(scenario.pollers().get(i));
    }

    /** The clock poller {@code i} reads now. */
    private int pollerClock(RelayState s, int i) {
        return s.surroundings().pollerClock(i, s.clock());
    }

    private void addProducerSteps(RelayState s, List<Step> steps) {
        ProducerState p = s.producer();
        if (scenario.producersOverlap()) {
            if (p.next() < scenario.events().size()) {
                steps.add(new Begin(scenario.events().get(p.next()).id()));
            }
            s.surroundings().inFlight().forEach(e -> steps.add(new Commit(e.id())));
            return;
        }
        if (p.next() >= scenario.events().size()) {
            return;
        }
        String id = scenario.events().get(p.next()).id();
        steps.add(new Produce(id));
        boolean failPoint = logic.producerShape() == ProducerShape.ONE_TRANSACTION ? !p.businessOnly() : p.businessOnly();
        if (failPoint && s.faults().produceFails() < scenario.maxProduceFails()) {
            steps.add(new ProduceFails(id));
        }
    }

    private void addPollerStep(RelayState s, int i, List<Step> steps) {
        PollerState p = s.poller(i);
        String name = scenario.pollers().get(i);
        switch (p.phase()) {
            case IDLE -> {
                if (!RelayTransactions.claimableIds(logic, s, scenario.batch(), scenario.instanceId(name), pollerClock(s, i)).isEmpty()) {
                    steps.add(new Claim(name));
                }
            }
            case CLAIMING -> steps.add(new Claim(name));
            case TO_DELIVER, DELIVERING -> steps.add(new Deliver(name, p.head().eventId(), p.head().token()));
            case TO_ACK -> steps.add(new Ack(name, p.head().eventId(), p.head().token()));
            case TO_RELEASE -> steps.add(new Release(name, p.head().eventId(), p.head().token()));
        }
    }

    private void addPollerFaults(RelayState s, int i, List<Step> steps) {
        PollerState p = s.poller(i);
        String name = scenario.pollers().get(i);
        if (!p.isIdle() && s.faults().crashes() < scenario.maxCrashes()) {
            steps.add(new Crash(name));
        }
        if (p.phase() == Phase.TO_ACK && s.faults().lostAcks() < scenario.maxLostAcks()) {
            steps.add(new LoseAck(name, p.head().eventId()));
        }
        if (p.phase() == Phase.TO_DELIVER && s.faults().deliverFails() < scenario.maxDeliverFails()) {
            steps.add(new DeliverFails(name, p.head().eventId()));
        }
    }

    /**
     * Applies {@code step} to {@code s}. Throws {@link IllegalStepException} when the step is not enabled
     * there (wrong phase, wrong event or token, fault budget spent, clock at its bound).
     */
    public StepResult apply(RelayState s, Step step) {
        if (!enabled(s).contains(step)) {
            throw new IllegalStepException(step + " is not enabled; enabled: " + enabled(s));
        }
        return applyEnabled(s, step);
    }

    /** {@link #apply} without the enabledness check, for searches that only apply steps {@link #enabled} listed. */
    public StepResult applyEnabled(RelayState s, Step step) {
        if (step instanceof Produce) {
            return produce(s);
        } else if (step instanceof ProduceFails pf) {
            return produceFails(s, pf);
        } else if (step instanceof Claim c) {
            return claim(s, scenario.pollerIndex(c.poller()));
        } else if (step instanceof Deliver d) {
            return deliver(s, scenario.pollerIndex(d.poller()));
        } else if (step instanceof Ack a) {
            return ack(s, scenario.pollerIndex(a.poller()));
        } else if (step instanceof Release r) {
            return release(s, scenario.pollerIndex(r.poller()));
        } else if (step instanceof Tick) {
            return new StepResult(s.ticked(), new Outcome.Ticked(s.clock() + 1));
        } else if (step instanceof Crash c) {
            return crash(s, scenario.pollerIndex(c.poller()));
        } else if (step instanceof LoseAck l) {
            return loseAck(s, scenario.pollerIndex(l.poller()));
        } else if (step instanceof DeliverFails f) {
            return deliverFails(s, scenario.pollerIndex(f.poller()));
        } else if (step instanceof Purge p) {
            return purge(s, p);
        } else if (step instanceof Cleanup) {
            return RelayTransactions.cleanup(logic, s);
        } else if (step instanceof Renew r) {
            return renew(s, scenario.pollerIndex(r.poller()));
        } else if (step instanceof Skew k) {
            return new StepResult(s.withSurroundings(s.surroundings().withSkew(k.skew())), new Outcome.Skewed(k.poller(), k.skew()));
        } else if (step instanceof Begin b) {
            Event e = scenario.event(b.eventId());
            return new StepResult(s.withProducer(new ProducerState(s.producer().next() + 1, false))
                    .withSurroundings(s.surroundings().begun(e)), new Outcome.Begun(e.id(), e.seq()));
        } else if (step instanceof Commit c) {
            return RelayTransactions.commit(logic, s, scenario.event(c.eventId()));
        }
        throw new IllegalStepException("unknown step " + step);
    }

    private StepResult produce(RelayState s) {
        ProducerState p = s.producer();
        Event e = scenario.events().get(p.next());
        if (logic.producerShape() == ProducerShape.ONE_TRANSACTION) {
            return then(RelayTransactions.produce(s, e), st -> st.withProducer(new ProducerState(p.next() + 1, false)));
        }
        if (!p.businessOnly()) {
            return then(RelayTransactions.businessWriteOnly(s, e), st -> st.withProducer(new ProducerState(p.next(), true)));
        }
        return then(RelayTransactions.outboxInsertOnly(s, e), st -> st.withProducer(new ProducerState(p.next() + 1, false)));
    }

    private StepResult produceFails(RelayState s, ProduceFails step) {
        ProducerState p = s.producer();
        RelayState next = s.withProducer(new ProducerState(p.next() + 1, false)).withFaults(s.faults().produceFail());
        return new StepResult(next, new Outcome.ProduceFailed(step.eventId(), p.businessOnly()));
    }

    private StepResult claim(RelayState s, int i) {
        PollerState p = s.poller(i);
        String name = scenario.instanceId(scenario.pollers().get(i)); // what the logic knows the poller by
        int clock = pollerClock(s, i);
        if (logic.claimShape() == ClaimShape.CHECK_THEN_ACT && p.phase() == Phase.IDLE) {
            List<String> seen = RelayTransactions.claimableIds(logic, s, scenario.batch(), name, clock);
            return new StepResult(s.withPoller(i, new PollerState(Phase.CLAIMING, List.of(), seen)),
                    new Outcome.ClaimRead(seen));
        }
        List<String> ids = p.phase() == Phase.CLAIMING ? p.readSet() : RelayTransactions.claimableIds(logic, s, scenario.batch(), name, clock);
        StepResult r = moveCursor(RelayTransactions.writeLeases(logic, s, name, ids, scenario.leaseTicks(), clock), ids);
        List<Held> batch = new ArrayList<>();
        for (Outcome.Grant g : ((Outcome.Claimed) r.outcome()).grants()) {
            batch.add(new Held(g.eventId(), g.token()));
        }
        // a check-then-act write whose rows the cleanup deleted in between leases nothing: the poller is idle again
        PollerState next = batch.isEmpty() ? PollerState.IDLE : new PollerState(firstPhaseOfItem(), batch, List.of());
        return then(r, st -> st.withPoller(i, next));
    }

    /**
     * The atomic claim {@code claim} with the rows a relay chose instead of the ones this model takes (the first
     * {@code batch} claimable rows in sequence order): for a relay that promises no order, any claimable rows
     * will do, as many as the model would take. Empty when that choice is not one the logic allows (a row not
     * claimable, a repeated row, too few or too many rows, or a poller that is not idle).
     */
    public java.util.Optional<StepResult> claimOf(RelayState s, Claim claim, List<String> ids) {
        int i = scenario.pollerIndex(claim.poller());
        if (logic.claimShape() != ClaimShape.ATOMIC || !s.poller(i).isIdle()) {
            return java.util.Optional.empty();
        }
        String id = scenario.instanceId(claim.poller());
        List<String> claimable = RelayTransactions.claimableIds(logic, s, Integer.MAX_VALUE, id);
        if (ids.size() != Math.min(scenario.batch(), claimable.size()) || !claimable.containsAll(ids)
                || ids.stream().distinct().count() != ids.size()) {
            return java.util.Optional.empty();
        }
        StepResult r = RelayTransactions.writeLeases(logic, s, id, ids, scenario.leaseTicks());
        List<Held> batch = new ArrayList<>();
        for (Outcome.Grant g : ((Outcome.Claimed) r.outcome()).grants()) {
            batch.add(new Held(g.eventId(), g.token()));
        }
        PollerState next = batch.isEmpty() ? PollerState.IDLE : new PollerState(firstPhaseOfItem(), batch, List.of());
        return java.util.Optional.of(then(r, st -> st.withPoller(i, next)));
    }

    private StepResult deliver(RelayState s, int i) {
        PollerState p = s.poller(i);
        Event e = scenario.event(p.head().eventId());
        long token = p.head().token();
        boolean dates = datesMarkers();
        if (p.phase() == Phase.DELIVERING) {
            StepResult second = RelayTransactions.consumeSecondHalf(logic, s, e, token);
            return then(dates ? dateNewMarkers(s, second) : second, st -> st.withPoller(i, afterDelivery(p)));
        }
        if (deliversAndAcks()) {
            return then(RelayTransactions.deliverAndAck(logic, s, instanceId(i), e, token),
                    st -> st.withPoller(i, p.advance(firstPhaseOfItem())));
        }
        StepResult r = RelayTransactions.consume(logic, s, e, token);
        if (dates) {
            r = dateNewMarkers(s, r);
        }
        boolean half = r.outcome() instanceof Outcome.HalfApplied;
        return then(r, st -> st.withPoller(i, half ? p.at(Phase.DELIVERING) : afterDelivery(p)));
    }

    private StepResult ack(RelayState s, int i) {
        PollerState p = s.poller(i);
        StepResult r = RelayTransactions.ack(logic, s, instanceId(i), p.batch(), finerSettle());
        PollerState next = logic.acksBeforeDelivering() ? p.at(Phase.TO_DELIVER) : p.advance(firstPhaseOfItem());
        return then(r, st -> st.withPoller(i, next));
    }

    private StepResult release(RelayState s, int i) {
        PollerState p = s.poller(i);
        StepResult r = RelayTransactions.release(logic, s, instanceId(i), p.head(), finerSettle());
        return then(r, st -> st.withPoller(i, p.advance(firstPhaseOfItem())));
    }

    /**
     * A cursor relay's cursor moves to the highest sequence it claimed. Only overlapping producers can commit a
     * row below it, so only their scenarios keep it: elsewhere a cursor relay is the reference logic, state for state.
     */
    private StepResult moveCursor(StepResult r, List<String> claimed) {
        if (logic.cursorRule() == RelayLogic.CursorRule.NONE || !scenario.producersOverlap() || claimed.isEmpty()) {
            return r;
        }
        int highest = r.state().surroundings().cursor();
        for (String id : claimed) {
            highest = Math.max(highest, scenario.event(id).seq());
        }
        return new StepResult(r.state().withSurroundings(r.state().surroundings().withCursor(highest)), r.outcome());
    }

    /** A renewal; refused, the poller knows it lost the lease and gives up its batch (as after a lost ack). */
    private StepResult renew(RelayState s, int i) {
        PollerState p = s.poller(i);
        StepResult r = RelayTransactions.renew(logic, s, instanceId(i), p.head().eventId(), p.head().token(),
                scenario.leaseTicks(), pollerClock(s, i));
        if (r.outcome() instanceof Outcome.RenewalRefused refused) {
            List<String> abandoned = p.batch().stream().map(Held::eventId).toList();
            return new StepResult(r.state().withPoller(i, PollerState.IDLE), new Outcome.RenewalRefused(refused.eventId(),
                    refused.token(), refused.currentToken(), abandoned));
        }
        return r;
    }

    private StepResult crash(RelayState s, int i) {
        PollerState p = s.poller(i);
        List<String> forgotten = new ArrayList<>(p.readSet());
        p.batch().forEach(h -> forgotten.add(h.eventId()));
        return new StepResult(s.withPoller(i, PollerState.IDLE).withFaults(s.faults().crash()),
                new Outcome.Crashed(scenario.pollers().get(i), forgotten));
    }

    private StepResult loseAck(RelayState s, int i) {
        PollerState p = s.poller(i);
        List<String> abandoned = p.batch().stream().map(Held::eventId).toList();
        return new StepResult(s.withPoller(i, PollerState.IDLE).withFaults(s.faults().lostAck()),
                new Outcome.AckLost(p.head().eventId(), abandoned));
    }

    private StepResult deliverFails(RelayState s, int i) {
        PollerState p = s.poller(i);
        return new StepResult(s.withPoller(i, p.at(Phase.TO_RELEASE)).withFaults(s.faults().deliverFail()),
                new Outcome.DeliveryRolledBack(p.head().eventId()));
    }

    /** Which finer outcomes of an ack or release this scenario asks for (hazards 2 and 6). */
    private RelayTransactions.Finer finerSettle() {
        return RelayTransactions.Finer.of(scenario);
    }

    /** Delivery and ack in one transaction: asked of the logic, honoured only where the shape allows it. */
    private boolean deliversAndAcks() {
        return logic.deliversAndAcksTogether() && !logic.acksBeforeDelivering()
                && logic.consumerShape() == RelayLogic.ConsumerShape.ONE_TRANSACTION;
    }

    private Phase firstPhaseOfItem() {
        return logic.acksBeforeDelivering() ? Phase.TO_ACK : Phase.TO_DELIVER;
    }

    /** After the consumer transaction: ack next, or (ack-first logic) the item is done. */
    private PollerState afterDelivery(PollerState p) {
        return logic.acksBeforeDelivering() ? p.advance(firstPhaseOfItem()) : p.at(Phase.TO_ACK);
    }

    private static StepResult then(StepResult r, java.util.function.UnaryOperator<RelayState> f) {
        return new StepResult(f.apply(r.state()), r.outcome());
    }
}
