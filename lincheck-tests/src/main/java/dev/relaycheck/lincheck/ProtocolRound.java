package dev.relaycheck.lincheck;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.Held;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Invariants;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Violation;
import dev.relaycheck.model.store.RelayStore;
import dev.relaycheck.model.store.RelayStore.Delivery;

import java.util.ArrayList;
import java.util.List;

/**
 * One round of the relay protocol on real threads: pollers p1 and p2 each claim (one row), deliver and ack
 * what they got, while a third thread ticks the clock once. The world is the reference case: EVENT-61 takes
 * 4 of SKU-29 (stock 10); the lease lasts one tick, so the tick can expire p1's lease and let p2 re-claim.
 *
 * <p>At the end the model's invariants are asserted on the store's final state, and the protocol facts that
 * no final state shows are asserted on what the pollers saw: every claim issued a fresh token
 * (STALE_ACK_REJECTED), an ack succeeded only with the newest token of its row (STALE_ACK_REJECTED), no two
 * claims won one row at the same instant (SINGLE_LIVE_LEASE), and the event ended delivered exactly once
 * (EVENTUAL_DELIVERY: the last claimer's ack must land).
 */
final class ProtocolRound {
    /**
     * The world, built afresh for every round: nothing a round touches is shared with an earlier round or an
     * earlier check (not even a collection's lazily cached view), so a failing round's trace is the same bytes
     * whether the check runs alone or after others in one JVM.
     */
    static Scenario world() {
        return Scenario.builder("relay-protocol")
                .description("two pollers claim, deliver and ack EVENT-61 while the clock ticks once")
                .pollers("p1", "p2").stock("SKU-29", 10).event("EVENT-61", "SKU-29", 4).leaseTicks(1).build();
    }

    private ProtocolRound() {
    }

    /** What one poller did: its claim, with the clock read just before and just after it, and the answers. */
    record Turn(String poller, Held held, int clockBefore, int clockAfter, Delivery delivery, boolean acked) {
        /** The instant of the claim, if the clock did not move while it ran. */
        boolean claimedAtKnownInstant() {
            return clockBefore == clockAfter;
        }

        @Override
        public String toString() {
            return poller + " claimed " + held + " at t=" + clockBefore + (claimedAtKnownInstant() ? "" : ".." + clockAfter)
                    + ", delivery " + delivery + ", ack " + (acked ? "ACKED" : "STALE");
        }
    }

    static void play(Target target) {
        Scenario world = world();
        RelayStore store = target.newStore(world.events(), world.initialStock(), world.leaseTicks());
        List<Turn> p1 = new ArrayList<>();
        List<Turn> p2 = new ArrayList<>();
        Thread first = new Thread(() -> poll(store, "p1", p1));
        Thread second = new Thread(() -> poll(store, "p2", p2));
        Thread clock = new Thread(store::tick);
        first.start();
        second.start();
        clock.start();
        join(first);
        join(second);
        join(clock);
        List<Turn> turns = new ArrayList<>(p1);
        turns.addAll(p2);
        check(world, store.state(), turns);
    }

    private static void poll(RelayStore store, String poller, List<Turn> out) {
        int before = store.now();
        List<Held> held = store.claim(poller, 1);
        int after = store.now();
        for (Held h : held) {
            Delivery d = store.consume(h.eventId(), h.token());
            out.add(new Turn(poller, h, before, after, d, store.ack(h.eventId(), h.token())));
        }
    }

    static void check(Scenario world, RelayState end, List<Turn> turns) {
        String seen = turns + "; final state " + end.rows() + " " + end.consumer();
        List<Violation> broken = Invariants.checkState(world, end);
        if (!broken.isEmpty()) {
            throw new ProtocolViolation(broken.get(0).invariant(), broken.get(0).detail() + "; " + seen);
        }
        for (Turn a : turns) {
            for (Turn b : turns) {
                if (a == b || !a.held().eventId().equals(b.held().eventId())) {
                    continue;
                }
                if (a.held().token() == b.held().token()) {
                    throw new ProtocolViolation(Invariant.STALE_ACK_REJECTED, "two claims of " + a.held().eventId()
                            + " issued the same token t" + a.held().token() + ", so the old owner's ack still matches; " + seen);
                }
                if (a.acked() && a.held().token() < b.held().token()) {
                    throw new ProtocolViolation(Invariant.STALE_ACK_REJECTED, a.poller() + "'s ack with t" + a.held().token()
                            + " was accepted although " + b.poller() + " had re-claimed the row with t" + b.held().token() + "; " + seen);
                }
                if (a.claimedAtKnownInstant() && b.claimedAtKnownInstant() && a.clockBefore() == b.clockBefore()) {
                    throw new ProtocolViolation(Invariant.SINGLE_LIVE_LEASE, a.poller() + " and " + b.poller() + " both won "
                            + a.held().eventId() + " at t=" + a.clockBefore() + ", within one lease; " + seen);
                }
            }
        }
        if (!Invariants.isComplete(world, end)) {
            throw new ProtocolViolation(Invariant.EVENTUAL_DELIVERY, Invariants.whyIncomplete(world, end) + "; " + seen);
        }
    }

    private static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + t.getName(), e);
        }
    }
}
