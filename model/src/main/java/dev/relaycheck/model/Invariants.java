package dev.relaycheck.model;

import dev.relaycheck.model.RelayLogic.TokenPolicy;
import dev.relaycheck.model.Step.Ack;
import dev.relaycheck.model.Step.Release;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Judges states and transitions against the {@link Invariant}s. Each check returns every invariant that
 * broke, with a detail naming the events, tokens and numbers involved.
 */
public final class Invariants {
    private Invariants() {
    }

    /** State invariants of {@code s}. */
    public static List<Violation> checkState(Scenario scenario, RelayState s) {
        List<Violation> out = new ArrayList<>();
        effectAtMostOnce(scenario, s, out);
        markerIffEffect(scenario, s, out);
        noLostEvent(s, out);
        noEventPassedOver(scenario, s, out);
        produceAtomic(s, out);
        aggregateOrder(s, out);
        return out;
    }

    /** Transition invariants of one step, then the state invariants of the state it led to. */
    public static List<Violation> check(Scenario scenario, RelayState before, Step step, StepResult after) {
        return check(scenario, TokenPolicy.GLOBAL_COUNTER, before, step, after);
    }

    /** {@link #check(Scenario, RelayState, Step, StepResult)} for a relay whose tokens follow {@code tokens}. */
    public static List<Violation> check(Scenario scenario, TokenPolicy tokens, RelayState before, Step step, StepResult after) {
        List<Violation> out = new ArrayList<>(checkTransition(scenario, tokens, before, step, after));
        out.addAll(checkState(scenario, after.state()));
        return out;
    }

    /** Properties of the (before, step, after) triple that no single state shows, for a global token counter. */
    public static List<Violation> checkTransition(RelayState before, Step step, StepResult after) {
        return checkTransition(null, TokenPolicy.GLOBAL_COUNTER, before, step, after);
    }

    /**
     * {@link #checkTransition(Scenario, TokenPolicy, RelayState, Step, StepResult)} without the scenario: pollers are
     * named by the instance ids their leases carry.
     */
    public static List<Violation> checkTransition(TokenPolicy tokens, RelayState before, Step step, StepResult after) {
        return checkTransition(null, tokens, before, step, after);
    }

    /**
     * Properties of the (before, step, after) triple that no single state shows. With a global counter a claim's
     * token must be above every token issued before; with per-row versions, above the row's own version (the
     * same guarantee for the only owner that could still present an old token: that row's).
     *
     * <p>SINGLE_LIVE_LEASE is what its name says: two workers each holding a live lease on one row, each believing
     * it owns it. A claim breaks it when it replaces a live lease that another poller still holds (the row is in
     * that poller's batch under the lease's token); replacing a live lease nobody holds any more (its owner crashed,
     * or gave its batch up after a lost ack) leaves one owner, the claimer. A renewal breaks it when it extends a
     * lease other than the renewer's own while that lease's holder still holds it.
     */
    public static List<Violation> checkTransition(Scenario scenario, TokenPolicy tokens, RelayState before, Step step,
                                                  StepResult after) {
        List<Violation> out = new ArrayList<>();
        if (step instanceof Ack a) {
            fencing(scenario, before, after.state(), step, "ack", a.eventId(), a.token(), out);
        } else if (step instanceof Release r) {
            fencing(scenario, before, after.state(), step, "release", r.eventId(), r.token(), out);
        } else if (step instanceof Step.Deliver d) {
            // only a deliver-and-ack relay changes the row when it delivers; it is fenced like an ack
            fencing(scenario, before, after.state(), step, "deliver-and-ack", d.eventId(), d.token(), out);
        }
        if (after.outcome() instanceof Outcome.Renewed renewed) {
            renewalHeldLease(scenario, before, step, renewed, out);
        }
        if (after.outcome() instanceof Outcome.Claimed claimed) {
            long floor = before.lastToken();
            for (Outcome.Grant g : claimed.grants()) {
                OutboxRow was = before.row(g.eventId()).orElseThrow();
                if (tokens == TokenPolicy.PER_ROW_VERSION) {
                    if (g.token() <= was.version()) {
                        out.add(new Violation(Invariant.STALE_ACK_REJECTED, "claim of " + g.eventId() + " issued version t"
                                + g.token() + ", not above the row's version v" + was.version()
                                + ", so an old owner's version still matches"));
                    }
                } else if (g.token() <= floor) {
                    out.add(new Violation(Invariant.STALE_ACK_REJECTED, "claim of " + g.eventId() + " issued token t"
                            + g.token() + ", not above t" + floor + " issued before, so an old owner's token still matches"));
                }
                floor = Math.max(floor, g.token());
                if (was.hasLease() && was.lease().liveAt(before.clock())) { // on the clock its expiry was written on
                    String claimer = step.actor();
                    holder(scenario, before, g.eventId(), was.lease(), claimer).ifPresent(holder -> out.add(new Violation(
                            Invariant.SINGLE_LIVE_LEASE, claimer + "'s claim of " + g.eventId() + " at t=" + before.clock()
                            + " replaced the live lease " + live(was.lease()) + " that " + holder + " still holds: " + holder
                            + " and " + claimer + " both believe they own " + g.eventId() + sameInstanceId(scenario, holder, claimer))));
                }
            }
        }
        return out;
    }

    /**
     * A renewal that succeeds tells its poller it holds a live lease until the new expiry. Granted to a poller
     * whose token is not the row's while the poller holding the row's lease still holds it, it makes two pollers
     * believe they hold the row: the renewer, and that holder (whose lease was taken over, or lapsed and is live
     * again).
     */
    private static void renewalHeldLease(Scenario scenario, RelayState before, Step step, Outcome.Renewed renewed,
                                         List<Violation> out) {
        OutboxRow was = before.row(renewed.eventId()).orElseThrow();
        if (was.currentToken() == renewed.token() || !was.hasLease()) {
            return;
        }
        String renewer = step.actor();
        holder(scenario, before, renewed.eventId(), was.lease(), renewer).ifPresent(holder -> out.add(new Violation(
                Invariant.SINGLE_LIVE_LEASE, renewer + "'s renewal of " + renewed.eventId() + " with t" + renewed.token()
                + " at t=" + before.clock() + " was accepted though the row's lease is " + was.lease()
                + (was.lease().liveAt(before.clock()) ? "" : " (lapsed, now live again)") + ", which " + holder
                + " still holds: " + holder + " and " + renewer + " both believe they hold a live lease on " + renewed.eventId()
                + sameInstanceId(scenario, holder, renewer))));
    }

    /**
     * The poller other than {@code actor} that holds {@code eventId} under {@code lease}'s token in {@code s} (the row is
     * in its batch: it believes it owns it), by name; the first in scenario order. Without the scenario a poller is
     * named by the lease's owner, which is its name unless instance ids are shared.
     */
    private static java.util.Optional<String> holder(Scenario scenario, RelayState s, String eventId, Lease lease, String actor) {
        Held held = new Held(eventId, lease.token());
        for (int i = 0; i < s.pollers().size(); i++) {
            String name = scenario != null ? scenario.pollers().get(i) : lease.owner();
            if (!name.equals(actor) && s.poller(i).batch().contains(held)) {
                return java.util.Optional.of(name);
            }
        }
        return java.util.Optional.empty();
    }

    /**
     * A live lease as a sentence names it; one whose expiry is on a skewed poller's clock says until when it is live on
     * the database's clock, which is what the claim's time is.
     */
    private static String live(Lease lease) {
        if (lease.clockSkew() == 0 || lease.expiry() == Lease.NEVER) {
            return lease.toString();
        }
        return lease + " (live until t=" + (lease.expiry() - lease.clockSkew()) + " on the database's clock)";
    }

    /**
     * Why a lease's owner could not tell two pollers apart, when they present one instance id (the scenario's
     * instance-ids dimension); "" when their ids differ.
     */
    private static String sameInstanceId(Scenario scenario, String first, String second) {
        if (scenario == null || !scenario.instanceId(first).equals(scenario.instanceId(second))) {
            return "";
        }
        return switch (scenario.instanceIds()) {
            case SHARED -> " (" + first + " and " + second + " present one instance id, " + scenario.instanceId(first)
                    + ": instance-ids shared, one node's workers; a lease's owner names either of them)";
            case REUSED -> {
                String restart = scenario.pollers().get(scenario.pollers().size() - 1);
                String original = scenario.pollers().get(0);
                yield " (" + restart + " presents " + original + "'s instance id: instance-ids reused, a restart of "
                        + original + " under its id while " + original + " still runs; a lease's owner names either of them)";
            }
            case UNIQUE -> "";
        };
    }

    private static void fencing(Scenario scenario, RelayState before, RelayState after, Step step, String what,
                                String eventId, long token, List<Violation> out) {
        OutboxRow was = before.row(eventId).orElse(null);
        if (was == null) {
            return; // the cleanup deleted the row: an ack or release of it matches nothing and changes nothing
        }
        OutboxRow now = after.row(eventId).orElseThrow();
        if (was.currentToken() != token && !was.equals(now)) {
            String note = was.hasLease() ? holder(scenario, before, eventId, was.lease(), step.actor())
                    .map(h -> sameInstanceId(scenario, h, step.actor())).orElse("") : "";
            out.add(new Violation(Invariant.STALE_ACK_REJECTED, what + " of " + eventId + " with stale token t" + token
                    + " changed the row from " + was + " to " + now + note));
        }
    }

    private static void effectAtMostOnce(Scenario scenario, RelayState s, List<Violation> out) {
        ConsumerState c = s.consumer();
        for (Map.Entry<String, Integer> e : c.effects().entrySet()) {
            if (e.getValue() > 1) {
                out.add(new Violation(Invariant.EFFECT_AT_MOST_ONCE, e.getKey() + " applied " + e.getValue() + " times"
                        + (c.wasPurged(e.getKey()) ? " (its marker was purged by the retention policy, so a redelivery"
                        + " after the purge found none)" : "")));
            }
        }
        for (Map.Entry<String, Integer> stock : scenario.initialStock().entrySet()) {
            int expected = stock.getValue();
            for (Event e : scenario.events()) {
                if (e.aggregate().equals(stock.getKey()) && c.effectCount(e.id()) > 0) {
                    expected -= e.quantity();
                }
            }
            int actual = c.stock().getOrDefault(stock.getKey(), 0);
            if (actual != expected) {
                out.add(new Violation(Invariant.EFFECT_AT_MOST_ONCE, "stock of " + stock.getKey() + " is " + actual
                        + ", expected " + expected + " from the events applied"));
            }
        }
    }

    private static void markerIffEffect(Scenario scenario, RelayState s, List<Violation> out) {
        ConsumerState c = s.consumer();
        for (Event e : scenario.events()) {
            boolean marker = c.hasMarkerFor(e.id());
            boolean effect = c.effectCount(e.id()) > 0;
            if (marker && !effect) {
                out.add(new Violation(Invariant.MARKER_IFF_EFFECT, e.id() + " has a marker but its effect was never applied"));
            } else if (effect && !marker && !c.wasPurged(e.id())) {
                // a marker purged by policy is gone on purpose (what its retention is judged for, by the redelivery
                // that may follow: EFFECT_AT_MOST_ONCE); one never written is this bug
                out.add(new Violation(Invariant.MARKER_IFF_EFFECT, e.id() + " was applied but its marker was never written, so a redelivery would apply it again"));
            }
        }
    }

    private static void noLostEvent(RelayState s, List<Violation> out) {
        for (OutboxRow r : s.rows()) {
            if (r.status() == RowStatus.DELIVERED && s.consumer().effectCount(r.id()) == 0) {
                out.add(new Violation(Invariant.NO_LOST_EVENT, r.id() + " is DELIVERED but its effect was never applied"));
            }
        }
        for (Map.Entry<String, String> deleted : s.surroundings().cleanedUp().entrySet()) {
            String id = deleted.getKey();
            if (s.consumer().effectCount(id) == 0 && !s.held(id)) {
                out.add(new Violation(Invariant.NO_LOST_EVENT, id + " was deleted by the outbox cleanup (Cleanup) while "
                        + deleted.getValue() + ", before its effect was applied, and no poller holds it any more: the event is lost"));
            }
        }
    }

    /**
     * A cursor relay counts every row at or below its cursor as seen: a row that committed there after the
     * cursor passed its sequence will never be read, so the relay has lost it (a watermark skip).
     */
    private static void noEventPassedOver(Scenario scenario, RelayState s, List<Violation> out) {
        for (String id : s.surroundings().passedOver()) {
            OutboxRow r = s.row(id).orElse(null);
            if (r != null && r.isPending() && s.consumer().effectCount(id) == 0) {
                out.add(new Violation(Invariant.NO_LOST_EVENT, id + " (seq " + r.event().seq()
                        + ") committed after the relay's cursor had passed seq " + s.surroundings().cursor()
                        + ": the relay will never read it, and its effect was never applied"));
            }
        }
    }

    private static void produceAtomic(RelayState s, List<Violation> out) {
        TreeSet<String> inOutbox = new TreeSet<>();
        s.rows().forEach(r -> inOutbox.add(r.id()));
        inOutbox.addAll(s.surroundings().cleanedUp().keySet()); // committed with its business write, deleted since
        for (String id : s.businessWrites()) {
            if (!inOutbox.contains(id)) {
                out.add(new Violation(Invariant.PRODUCE_ATOMIC, id + " has a committed business write but no outbox row"));
            }
        }
        for (String id : inOutbox) {
            if (!s.businessWrites().contains(id)) {
                out.add(new Violation(Invariant.PRODUCE_ATOMIC, id + " has an outbox row but no business write"));
            }
        }
    }

    /** An effect landing after a later one of its aggregate; one applied again right after itself is EFFECT_AT_MOST_ONCE's. */
    private static void aggregateOrder(RelayState s, List<Violation> out) {
        for (Map.Entry<String, List<Integer>> e : s.consumer().appliedOrder().entrySet()) {
            List<Integer> seqs = e.getValue();
            for (int i = 1; i < seqs.size(); i++) {
                if (seqs.get(i) < seqs.get(i - 1)) {
                    out.add(new Violation(Invariant.AGGREGATE_ORDER, "effects of " + e.getKey() + " applied in order "
                            + seqs + ": seq " + seqs.get(i) + " landed after seq " + seqs.get(i - 1)));
                    break;
                }
            }
        }
    }

    /**
     * The goal of EVENTUAL_DELIVERY: the producer is done, and every event whose business write committed
     * is DELIVERED with its effect applied exactly once.
     */
    public static boolean isComplete(Scenario scenario, RelayState s) {
        return isComplete(scenario, s, true);
    }

    /**
     * The goal of EVENTUAL_DELIVERY for a relay that promises exactly-once effects ({@code exactlyOnce}), or, for
     * one that promises only at-least-once (it does not promise EFFECT_AT_MOST_ONCE), every event DELIVERED with
     * its effect applied at least once.
     */
    public static boolean isComplete(Scenario scenario, RelayState s, boolean exactlyOnce) {
        if (s.producer().next() < scenario.events().size() || s.producer().businessOnly()
                || !s.surroundings().inFlight().isEmpty()) {
            return false;
        }
        for (String id : s.businessWrites()) {
            OutboxRow row = s.row(id).orElse(null);
            int effects = s.consumer().effectCount(id);
            // a row the cleanup deleted is done once its effect is applied (by the poller that held it, if need be)
            boolean settled = row == null ? s.surroundings().cleanedUp().containsKey(id) : row.status() == RowStatus.DELIVERED;
            if (!settled || (exactlyOnce ? effects != 1 : effects < 1)) {
                return false;
            }
        }
        return true;
    }

    /** Why {@code s} is not complete, for the EVENTUAL_DELIVERY message. */
    public static String whyIncomplete(Scenario scenario, RelayState s) {
        List<String> reasons = new ArrayList<>();
        if (s.producer().next() < scenario.events().size() || s.producer().businessOnly()
                || !s.surroundings().inFlight().isEmpty()) {
            reasons.add("the producer has not finished");
        }
        for (String id : s.businessWrites()) {
            OutboxRow row = s.row(id).orElse(null);
            int effects = s.consumer().effectCount(id);
            if (row == null) {
                String deleted = s.surroundings().cleanedUp().get(id);
                if (deleted == null) {
                    reasons.add(id + " has no outbox row");
                } else if (effects != 1) {
                    reasons.add(id + " was deleted by the outbox cleanup while " + deleted + (effects == 0
                            ? ", and its effect was never applied" : ", and its effect was applied " + effects + " times"));
                }
            } else if (row.status() != RowStatus.DELIVERED) {
                reasons.add(id + " is still " + row.status() + (row.hasLease() ? " leased " + row.lease() : ""));
            } else if (effects != 1) {
                reasons.add(id + " is DELIVERED with its effect applied " + effects + " times");
            }
        }
        return reasons.isEmpty() ? "complete" : String.join("; ", reasons);
    }
}
