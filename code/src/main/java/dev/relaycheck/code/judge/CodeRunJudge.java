package dev.relaycheck.code.judge;

import dev.relaycheck.code.judge.Finding;
import dev.relaycheck.code.judge.Reached;
import dev.relaycheck.code.observe.Row;
import dev.relaycheck.code.observe.Snapshot;
import dev.relaycheck.model.Invariant;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Judges a run of a relay's own code on what happened: the outbox and the effects as committed after every step,
 * and which instance's step made each change, in which of its polls. Only one actor runs between two snapshots, so
 * a change is the work of the actor that ran.
 *
 * <ul>
 *   <li>SINGLE_LIVE_LEASE: an instance's step puts its own lease on a row whose lease another instance holds, is
 *   live, and that other instance still works on (it is alive and in the poll that took the row): both believe
 *   they own it.</li>
 *   <li>STALE_ACK_REJECTED, for relays with or without tokens: a worker whose lease was taken over must not change
 *   the row any more in the poll that took it.</li>
 *   <li>EFFECT_AT_MOST_ONCE: no event's effect applied twice.</li>
 *   <li>AGGREGATE_ORDER: an event's effect is not applied while one committed before it, ahead of it in its
 *   aggregate, has not been.</li>
 *   <li>NO_LOST_EVENT and EVENTUAL_DELIVERY, at the end of the healing phase: every event applied; one whose row was
 *   deleted or marked delivered without its effect is lost, one still pending was not delivered.</li>
 * </ul>
 */
public final class CodeRunJudge {
    /** The invariants judged on a relay's own code, in the enum's order. */
    public static final List<Invariant> JUDGED = List.of(Invariant.EFFECT_AT_MOST_ONCE, Invariant.STALE_ACK_REJECTED,
            Invariant.NO_LOST_EVENT, Invariant.AGGREGATE_ORDER, Invariant.SINGLE_LIVE_LEASE, Invariant.EVENTUAL_DELIVERY);

    /** The instance a step belongs to: its thread's label, the instance's name, its instance id and its poll number. */
    public record Who(String actor, String participant, String instanceId, int poll) {
    }

    /** What the judge asks the run about its instances and names. */
    public interface World {
        /** The event name of an outbox id ({@code E1}), or the id itself when no event is known for it. */
        String label(String outboxId);

        /** Whether {@code participant} is alive and still in its poll number {@code poll}. */
        boolean stillIn(String participant, int poll);

        /** How a trace writes an instant of the run's clock. */
        String show(Instant instant);
    }

    private record Holder(Who who, Row row) {
    }

    private record TakenOver(Who by, int step, Row was, Row now) {
    }

    private final World world;
    private final Set<Invariant> notPromised;
    private final Map<String, Holder> holders = new TreeMap<>();
    /** By (participant, poll, row id): who took the row over from that worker. */
    private final Map<String, TakenOver> takenOver = new TreeMap<>();
    private final Map<String, Integer> committedAt = new TreeMap<>();
    private final Map<String, String> appliedAt = new TreeMap<>();
    private final Map<String, String> changedTo = new TreeMap<>();
    private final Map<Invariant, Finding> findings = new EnumMap<>(Invariant.class);
    private final Map<Invariant, Finding> notPromisedFindings = new EnumMap<>(Invariant.class);
    private final EnumSet<Reached> reached = EnumSet.noneOf(Reached.class);

    public CodeRunJudge(World world, Set<Invariant> notPromised) {
        this.world = world;
        this.notPromised = notPromised.isEmpty() ? EnumSet.noneOf(Invariant.class) : EnumSet.copyOf(notPromised);
    }

    /**
     * One step: {@code who} ran it, {@code result} is what its statement did ("0 rows", ...) or null, the clock read
     * {@code now}, and the committed world went from {@code before} to {@code after}.
     */
    public void step(int number, Who who, String sql, String result, Snapshot before, Snapshot after, Instant now) {
        Map<String, Row> was = before.byId();
        Map<String, Row> is = after.byId();
        for (Row r : after.rows()) {
            committedAt.putIfAbsent(r.id(), number);
        }
        TreeSet<String> ids = new TreeSet<>(byLabel());
        ids.addAll(was.keySet());
        ids.addAll(is.keySet());
        boolean changedAny = false;
        for (String id : ids) {
            Row b = was.get(id);
            Row a = is.get(id);
            if (b == null || (a != null && a.sameAs(b))) {
                if (b == null && a != null && a.leased()) {
                    holders.put(id, new Holder(who, a));
                }
                continue;
            }
            changedAny = true;
            String label = world.label(id);
            changedTo.put(id, a == null ? "deleted at step " + number + " by " + who.actor() + " while " + b.state(world::show)
                    : "marked " + a.state(world::show) + " at step " + number + " by " + who.actor());
            boolean newLease = a != null && a.leased() && !a.lease().equals(b.lease());
            if (newLease) { // a claim (or a renewal): judged as one, whoever held the row before
                takeOver(number, who, label, id, b, a, now);
                continue;
            }
            TakenOver t = takenOver.get(key(who, id));
            if (t != null) {
                add(Invariant.STALE_ACK_REJECTED, number, who.actor() + " changed " + label + " (" + b.state(world::show) + " -> "
                        + (a == null ? "deleted" : a.state(world::show)) + ") after " + t.by().actor() + " took its lease over at step "
                        + t.step() + ": a worker whose lease was taken over must not change the row" + sharedId(who, t.by()));
            }
            if (a == null || !a.leased()) {
                holders.remove(id);
            }
        }
        if (!changedAny && result != null && result.startsWith("0 rows") && sql != null && takenOverAny(who)
                && sql.trim().toUpperCase(java.util.Locale.ROOT).matches("^(UPDATE|DELETE)\\b.*")) {
            reached.add(Reached.STALE_WRITE_REFUSED);
        }
        effects(number, who, before, after);
    }

    /** {@code who} put a lease of its own on the row: a claim, a renewal, or a takeover of another worker's lease. */
    private void takeOver(int number, Who who, String label, String id, Row b, Row a, Instant now) {
        Holder h = holders.get(id);
        takenOver.remove(key(who, id)); // its own new lease: what it does with the row now is under that lease
        if (h != null && b.leased() && !h.who().participant().equals(who.participant())) {
            takenOver.put(key(h.who(), id), new TakenOver(who, number, b, a));
            boolean live = b.liveAt(now);
            if (!live) {
                reached.add(Reached.TAKEOVER);
            } else if (world.stillIn(h.who().participant(), h.who().poll())) {
                add(Invariant.SINGLE_LIVE_LEASE, number, who.actor() + " took " + label + "'s lease over at " + world.show(now)
                        + " (" + b.state(world::show) + " -> " + a.state(world::show) + ") while " + h.who().actor()
                        + "'s lease was live and " + h.who().actor() + ", still in the poll that took " + label
                        + ", works on it: both believe they own " + label + sharedId(who, h.who()));
            }
        }
        holders.put(id, new Holder(who, a));
    }

    private void effects(int number, Who who, Snapshot before, Snapshot after) {
        List<String> applied = new ArrayList<>(after.effects().keySet());
        applied.sort(byLabel());
        for (String id : applied) {
            int n = after.effects().get(id);
            int had = before.effects(id);
            if (n <= had) {
                continue;
            }
            String label = world.label(id);
            if (had == 0) {
                appliedAt.put(id, "step " + number + " by " + who.actor());
                Row mine = after.row(id).or(() -> before.row(id)).orElse(null);
                if (mine != null) {
                    after.rows().stream().filter(r -> !r.id().equals(id) && r.aggregate().equals(mine.aggregate())
                                    && r.orderKey().compareTo(mine.orderKey()) < 0 && after.effects(r.id()) == 0 && committedAt.containsKey(r.id()))
                            .min(java.util.Comparator.comparing(Row::orderKey).thenComparing(Row::id, byLabel()))
                            .ifPresent(r -> add(Invariant.AGGREGATE_ORDER, number, label + "'s effect was applied (" + who.actor()
                                    + ") before " + world.label(r.id()) + "'s, which is ahead of it in " + mine.aggregate()
                                    + " and was committed at step " + committedAt.get(r.id())));
                }
            }
            if (n > 1) {
                add(Invariant.EFFECT_AT_MOST_ONCE, number, label + "'s effect was applied " + n + " times (first at "
                        + appliedAt.get(id) + ", again at step " + number + " by " + who.actor() + ")");
            }
        }
    }

    /** A delivery {@code who} handed to the consumer: a redelivery when the event's effect was applied already. */
    public void delivering(Snapshot now, String outboxId) {
        reached.add(Reached.CONSUMER_BOUNDARY);
        if (now.effects(outboxId) > 0) {
            reached.add(Reached.REDELIVERY);
        }
    }

    /** {@code participant} crashed: a crash with a lease when a row's lease is one its steps took. */
    public void crashed(String participant) {
        if (holders.values().stream().anyMatch(h -> h.who().participant().equals(participant))) {
            reached.add(Reached.CRASH_WITH_LEASE);
        }
    }

    /**
     * The end of the healing phase: every event written ({@code produced}, outbox ids) must have had its effect
     * applied; {@code healingSteps} says how long the relay had, {@code pollFailure} what the last poll of the healing
     * phase that threw threw (null when none did).
     */
    public void end(Snapshot last, List<String> produced, int healingSteps, String pollFailure) {
        for (String id : produced) {
            if (last.effects(id) > 0) {
                continue;
            }
            String label = world.label(id);
            Row r = last.row(id).orElse(null);
            if (r == null) {
                add(Invariant.NO_LOST_EVENT, 0, label + "'s row was " + changedTo.getOrDefault(id, "deleted")
                        + ", and its effect was never applied: the event is lost");
            } else if (r.delivered()) {
                add(Invariant.NO_LOST_EVENT, 0, label + " was " + changedTo.getOrDefault(id, "marked delivered")
                        + ", but its effect was never applied: the event is lost");
            } else {
                add(Invariant.EVENTUAL_DELIVERY, 0, "after the faults stopped and every instance polled past every lease ("
                        + healingSteps + " healing steps), " + label + " is still " + r.state(world::show) + " and its effect was never applied"
                        + (pollFailure == null ? "" : "; the healing phase's last poll that failed: " + pollFailure));
            }
        }
    }

    /**
     * Outbox ids in the order of the names relaycheck gave them (E2 before E10): an id the relay made up (a UUID)
     * differs from run to run, a name does not.
     */
    public java.util.Comparator<String> byLabel() {
        return java.util.Comparator.comparing((String id) -> world.label(id).length()).thenComparing(world::label)
                .thenComparing(id -> id);
    }

    private boolean takenOverAny(Who who) {
        String prefix = who.participant() + "#" + who.poll() + "#";
        return takenOver.keySet().stream().anyMatch(k -> k.startsWith(prefix));
    }

    private static String key(Who w, String rowId) {
        return w.participant() + "#" + w.poll() + "#" + rowId;
    }

    private static String sharedId(Who a, Who b) {
        return a.instanceId().equals(b.instanceId()) && !a.participant().equals(b.participant())
                ? " (" + b.participant() + " and " + a.participant() + " share the instance id '" + a.instanceId()
                + "', so a check of the row's owner cannot tell them apart)" : "";
    }

    private void add(Invariant i, int step, String detail) {
        Map<Invariant, Finding> into = notPromised.contains(i) ? notPromisedFindings : findings;
        into.putIfAbsent(i, new Finding(i, step, detail));
    }

    /** The invariants broken, the first time each broke, in the enum's order. */
    public List<Finding> findings() {
        return new ArrayList<>(findings.values());
    }

    /** What broke that the relay does not promise: reported, not a failure. */
    public List<Finding> notPromised() {
        return new ArrayList<>(notPromisedFindings.values());
    }

    public Set<Reached> reached() {
        return EnumSet.copyOf(reached);
    }
}
