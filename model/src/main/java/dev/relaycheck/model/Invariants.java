package dev.relaycheck.model;

import dev.relaycheck.model.Step.Ack;
import dev.relaycheck.model.Step.Release;

import dev.relaycheck.model.RelayLogic.TokenPolicy;

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
        List<Violation> out = new ArrayList<>(checkTransition(tokens, before, step, after));
        out.addAll(checkState(scenario, after.state()));
        return out;
    }

    /** Properties of the (before, step, after) triple that no single state shows, for a global token counter. */
    public static List<Violation> checkTransition(RelayState before, Step step, StepResult after) {
        return checkTransition(TokenPolicy.GLOBAL_COUNTER, before, step, after);
    }

    /**
     * Properties of the (before, step, after) triple that no single state shows. With a global counter a claim's
     * token must be above every token issued before; with per-row versions, above the row's own version (the
     * same guarantee for the only owner that could still present an old token: that row's).
     */
    public static List<Violation> checkTransition(TokenPolicy tokens, RelayState before, Step step, StepResult after) {
        List<Violation> out = new ArrayList<>();
        if (step instanceof Ack a) {
            fencing(before, after.state(), "ack", a.eventId(), a.token(), out);
        } else if (step instanceof Release r) {
            fencing(before, after.state(), "release", r.eventId(), r.token(), out);
        } else if (step instanceof Step.Deliver d) {
            // only a deliver-and-ack relay changes the row when it delivers; it is fenced like an ack
            fencing(before, after.state(), "deliver-and-ack", d.eventId(), d.token(), out);
        }
        if (after.outcome() instanceof Outcome.Renewed renewed) {
            renewalHeldLease(before, step, renewed, out);
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
                if (!was.unleasedAt(before.clock())) {
                    out.add(new Violation(Invariant.SINGLE_LIVE_LEASE, "claim of " + g.eventId() + " at t=" + before.clock()
                            + " replaced the live lease " + was.lease() + " (two pollers now believe they own it)"));
                }
            }
        }
        return out;
    }

    /**
     * A renewal that succeeds tells its poller it holds a live lease until the new expiry. Granted to a poller
     * whose token is not the row's, it makes two pollers believe they hold the row: the renewer, and the owner
     * of the lease it extended (taken over, or lapsed and now live again).
     */
    private static void renewalHeldLease(RelayState before, Step step, Outcome.Renewed renewed, List<Violation> out) {
        OutboxRow was = before.row(renewed.eventId()).orElseThrow();
        if (was.currentToken() != renewed.token()) {
            out.add(new Violation(Invariant.SINGLE_LIVE_LEASE, step.actor() + "'s renewal of " + renewed.eventId()
                    + " with t" + renewed.token() + " at t=" + before.clock() + " was accepted though the row's lease is "
                    + (was.hasLease() ? was.lease() + (was.lease().expiredAt(before.clock()) ? " (lapsed, now live again)" : "")
                    : "gone") + ": two pollers now believe they hold a live lease"));
        }
    }

    private static void fencing(RelayState before, RelayState after, String what, String eventId, long token,
                                List<Violation> out) {
        OutboxRow was = before.row(eventId).orElseThrow();
        OutboxRow now = after.row(eventId).orElseThrow();
        if (was.currentToken() != token && !was.equals(now)) {
            out.add(new Violation(Invariant.STALE_ACK_REJECTED, what + " of " + eventId + " with stale token t" + token
                    + " changed the row from " + was + " to " + now));
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
    }

    /**
     * A cursor relay counts every row at or below its cursor as seen: a row that committed there after the
     * cursor passed its sequence will never be read, so the relay has lost it (a watermark skip).
     */
    private static void noEventPassedOver(Scenario scenario, RelayState s, List<Violation> out) {
        for (String id : s.hazards().passedOver()) {
            OutboxRow r = s.row(id).orElse(null);
            if (r != null && r.isPending() && s.consumer().effectCount(id) == 0) {
                out.add(new Violation(Invariant.NO_LOST_EVENT, id + " (seq " + r.event().seq()
                        + ") committed after the relay's cursor had passed seq " + s.hazards().cursor()
                        + ": the relay will never read it, and its effect was never applied"));
            }
        }
    }

    private static void produceAtomic(RelayState s, List<Violation> out) {
        TreeSet<String> inOutbox = new TreeSet<>();
        s.rows().forEach(r -> inOutbox.add(r.id()));
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

    private static void aggregateOrder(RelayState s, List<Violation> out) {
        for (Map.Entry<String, List<Integer>> e : s.consumer().appliedOrder().entrySet()) {
            List<Integer> seqs = e.getValue();
            for (int i = 1; i < seqs.size(); i++) {
                if (seqs.get(i) <= seqs.get(i - 1)) {
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
                || !s.hazards().inFlight().isEmpty()) {
            return false;
        }
        for (String id : s.businessWrites()) {
            OutboxRow row = s.row(id).orElse(null);
            int effects = s.consumer().effectCount(id);
            if (row == null || row.status() != RowStatus.DELIVERED || (exactlyOnce ? effects != 1 : effects < 1)) {
                return false;
            }
        }
        return true;
    }

    /** Why {@code s} is not complete, for the EVENTUAL_DELIVERY message. */
    public static String whyIncomplete(Scenario scenario, RelayState s) {
        List<String> reasons = new ArrayList<>();
        if (s.producer().next() < scenario.events().size() || s.producer().businessOnly()
                || !s.hazards().inFlight().isEmpty()) {
            reasons.add("the producer has not finished");
        }
        for (String id : s.businessWrites()) {
            OutboxRow row = s.row(id).orElse(null);
            int effects = s.consumer().effectCount(id);
            if (row == null) {
                reasons.add(id + " has no outbox row");
            } else if (row.status() != RowStatus.DELIVERED) {
                reasons.add(id + " is still " + row.status() + (row.hasLease() ? " leased " + row.lease() : ""));
            } else if (effects != 1) {
                reasons.add(id + " is DELIVERED with its effect applied " + effects + " times");
            }
        }
        return reasons.isEmpty() ? "complete" : String.join("; ", reasons);
    }
}
