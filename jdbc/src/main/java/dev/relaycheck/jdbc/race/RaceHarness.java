package dev.relaycheck.jdbc.race;

import dev.relaycheck.jdbc.adapter.RelayAdapter;
import dev.relaycheck.jdbc.db.Databases;
import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.db.RelaySqlException;
import dev.relaycheck.jdbc.relay.RelayTraits;
import dev.relaycheck.jdbc.world.Action;
import dev.relaycheck.jdbc.world.Pauses;
import dev.relaycheck.jdbc.world.Producer;
import dev.relaycheck.jdbc.world.Schema;
import dev.relaycheck.jdbc.world.Snapshots;
import dev.relaycheck.jdbc.world.SqlPoller;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Invariants;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.PollerState;
import dev.relaycheck.model.ProducerState;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.SplitMix64;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.Violation;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Real threads over a real database (H2 or PostgreSQL): a producer thread commits events while several poller threads, each with its own
 * connections, claim, deliver and acknowledge them with short leases, seeded random stalls (so owners go
 * stale and rows are re-claimed), lost acknowledgements, consumer rollbacks and crashes. The logical clock
 * is ticked by a ticker thread. At the end every event must be DELIVERED with exactly one marker and one
 * effect, stock exact, per-SKU order kept; the lease history must show one live lease per row at a time
 * and only current-token acknowledgements accepted.
 *
 * <p>Thread timing is not reproducible; the seed fixes each poller's fault and stall choices only.
 */
public final class RaceHarness {
    private RaceHarness() {
    }

    public static RaceResult run(RaceConfig cfg, DbTarget db) throws SQLException, InterruptedException {
        Scenario scenario = cfg.scenario();
        // a deliver-and-ack relay's handler may write the effect through the outbox transaction: one database
        Databases dbs = db.acquire(cfg.sharedDatabase() || cfg.relay().traits().deliversAndAcks());
        RelayAdapter observer = cfg.relay().newAdapter();
        long start = System.nanoTime();
        try {
            Schema.create(dbs, observer);
        } catch (SQLException | RuntimeException e) {
            db.release(dbs);
            throw e;
        }
        try (Connection outbox = dbs.openOutbox(); Connection consumer = dbs.openConsumer()) {
            Schema.load(outbox, consumer, scenario, observer);
            AtomicInteger clock = new AtomicInteger();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicBoolean produced = new AtomicBoolean();
            List<PollerThread> pollers = new ArrayList<>();
            RaceLog log = new RaceLog();
            for (int i = 0; i < cfg.pollers(); i++) {
                pollers.add(new PollerThread(cfg, scenario.pollers().get(i), dbs, clock, stop, SplitMix64.derive(cfg.seed(), i), log));
            }
            Thread ticker = new Thread(() -> tick(cfg, clock, stop), "race-ticker");
            Thread producer = new Thread(() -> produce(cfg, scenario, dbs, produced, stop, log), "race-producer");
            ticker.start();
            producer.start();
            pollers.forEach(Thread::start);
            boolean done = waitUntilDelivered(cfg, outbox, observer, produced, start);
            stop.set(true);
            for (Thread t : pollers) {
                t.join();
            }
            ticker.join();
            producer.join();
            long millis = (System.nanoTime() - start) / 1_000_000;
            int healing = done ? 0 : finishWithoutFaults(cfg, scenario, dbs, outbox, consumer, observer, clock.get(), log);
            return judge(cfg, scenario, outbox, consumer, observer, pollers, done, healing, clock.get(), millis, log);
        } finally {
            db.release(dbs);
        }
    }

    /**
     * After the deadline, what is left is finished without faults, in steps, not in time: the producer commits
     * the events it had not, then one fresh poller, its clock past every lease the race granted, runs until it
     * claims nothing, for at most {@link #HEALING_STEPS_PER_EVENT} steps an event. A loaded machine can make a
     * correct relay miss any deadline; only a relay that cannot finish even then breaks EVENTUAL_DELIVERY (as
     * the model's healing runs decide it). Returns the steps taken, at least 1.
     */
    private static int finishWithoutFaults(RaceConfig cfg, Scenario scenario, Databases dbs, Connection outbox, Connection consumer,
                                           RelayAdapter observer, int clock, RaceLog log) throws SQLException {
        RelayState now = Snapshots.read(outbox, consumer, observer, new Snapshots.Local(clock, List.of(),
                new ProducerState(0, false), RelayState.FaultCounts.NONE));
        int steps = 1;
        try (Connection c = dbs.openOutbox()) {
            Producer p = new Producer(cfg.relay().shape(), cfg.relay().newAdapter(), scenario.events(), c,
                    new ProducerState(now.businessWrites().size(), false));
            while (!p.finished()) {
                log.add(p.produce(), "healing");
                steps++;
            }
        }
        int after = clock + scenario.leaseTicks() + 1; // every lease granted so far has expired
        try (SqlPoller poller = new SqlPoller(RaceResult.HEALING_POLLER, cfg.relay(), dbs, scenario.batch(), scenario.leaseTicks(), Pauses.NONE)) {
            for (int i = 0; i < HEALING_STEPS_PER_EVENT * cfg.events(); i++) {
                Action a;
                try {
                    a = poller.runNext(after);
                } catch (RelaySqlException ex) {
                    // a database-side timeout or lock wait ended its transaction (time-based, as in the race): a crash
                    // there, as a race poller's; anything else is no verdict on the relay
                    if (!ex.sessionEndedByDatabase() && !ex.lockWaitTimedOut()) {
                        throw ex;
                    }
                    a = poller.crash();
                }
                log.add(a, "healing");
                steps++;
                if (a.outcome() instanceof Outcome.Claimed c && c.grants().isEmpty()) {
                    break;
                }
            }
        }
        return steps;
    }

    /** Claim, deliver, acknowledge, with room: a correct relay needs about 2 steps an event at batch 2. */
    static final int HEALING_STEPS_PER_EVENT = 8;

    private static void tick(RaceConfig cfg, AtomicInteger clock, AtomicBoolean stop) {
        while (!stop.get()) {
            nap(cfg.tickMillis());
            clock.incrementAndGet();
        }
    }

    private static void produce(RaceConfig cfg, Scenario scenario, Databases dbs, AtomicBoolean produced, AtomicBoolean stop,
                                RaceLog log) {
        SplitMix64 rng = new SplitMix64(SplitMix64.derive(cfg.seed(), -1));
        try (Connection c = dbs.openOutbox()) {
            Producer p = new Producer(cfg.relay().shape(), cfg.relay().newAdapter(), scenario.events(), c, new ProducerState(0, false));
            while (!p.finished() && !stop.get()) {
                log.add(p.produce(), "race");
                if (rng.nextInt(4) == 0) {
                    nap(1);
                }
            }
        } catch (SQLException | RelaySqlException ex) {
            throw new IllegalStateException("race producer failed", ex);
        } finally {
            produced.set(true);
        }
    }

    private static boolean waitUntilDelivered(RaceConfig cfg, Connection outbox, RelayAdapter observer, AtomicBoolean produced,
                                              long start) throws SQLException {
        while ((System.nanoTime() - start) / 1_000_000 < cfg.deadlineMillis()) {
            if (produced.get()) {
                List<OutboxRow> rows = observer.snapshot(outbox).rows();
                outbox.commit();
                if (rows.size() == cfg.events() && rows.stream().noneMatch(OutboxRow::isPending)) {
                    return true;
                }
            }
            nap(5);
        }
        return false;
    }

    private static RaceResult judge(RaceConfig cfg, Scenario scenario, Connection outbox, Connection consumer,
                                    RelayAdapter observer, List<PollerThread> pollers, boolean done, int healing, int clock,
                                    long millis, RaceLog log) {
        List<PollerState> idle = pollers.stream().map(p -> PollerState.IDLE).toList();
        RelayState end = Snapshots.read(outbox, consumer, observer, new Snapshots.Local(clock, idle,
                new ProducerState(cfg.events(), false), RelayState.FaultCounts.NONE));
        List<Violation> all = new ArrayList<>(Invariants.checkState(scenario, end));
        LeaseHistory history = new LeaseHistory();
        PollerThread.Counts total = new PollerThread.Counts();
        for (PollerThread p : pollers) {
            history.addAll(p.history);
            total.add(p.counts);
        }
        all.addAll(history.check());
        for (String id : end.businessWrites()) {
            long markers = end.consumer().markerCountFor(id);
            if (markers > 1) { // fewer than one is MARKER_IFF_EFFECT's or NO_LOST_EVENT's
                all.add(new Violation(Invariant.EFFECT_AT_MOST_ONCE, id + " has " + markers
                        + " applied_event markers: a redelivery was not recognised"));
            }
        }
        if (!cfg.relay().traits().complete(scenario, end)) {
            all.add(new Violation(Invariant.EVENTUAL_DELIVERY, (done ? "when every row was DELIVERED: " : "after the deadline of "
                    + cfg.deadlineMillis() + " ms and " + healing + " fault-free steps past every lease: ")
                    + Invariants.whyIncomplete(scenario, end)));
        }
        RelayTraits traits = cfg.relay().traits();
        List<Violation> violations = traits.failing(all);
        total.unpromised = traits.unpromised(all);
        int delivered = (int) end.rows().stream().filter(r -> !r.isPending()).count();
        return new RaceResult(cfg, violations, delivered, total.steps, history.grantCount(), total.reclaims, total.duplicates,
                total.stale, total.lostAcks, total.rollbacks, total.crashes, total.errors, total.firstError, millis, total.unpromised,
                total.sessionsEnded, total.lockWaitsTimedOut, healing, violations.isEmpty() ? List.of() : log.steps(), end);
    }

    static void nap(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One poller thread: its own SqlPoller (own connections), its own seeded fault and stall choices. */
    static final class PollerThread extends Thread {
        /** What one poller saw; merged after the threads are joined. */
        static final class Counts {
            long steps;
            int reclaims;
            int duplicates;
            int stale;
            int lostAcks;
            int rollbacks;
            int crashes;
            int errors;
            int sessionsEnded;
            int lockWaitsTimedOut;
            String firstError;
            List<Violation> unpromised = List.of();

            void add(Counts o) {
                steps += o.steps;
                reclaims += o.reclaims;
                duplicates += o.duplicates;
                stale += o.stale;
                lostAcks += o.lostAcks;
                rollbacks += o.rollbacks;
                crashes += o.crashes;
                errors += o.errors;
                sessionsEnded += o.sessionsEnded;
                lockWaitsTimedOut += o.lockWaitsTimedOut;
                if (firstError == null) {
                    firstError = o.firstError;
                }
            }
        }

        private final RaceConfig cfg;
        private final String name;
        private final Databases dbs;
        private final AtomicInteger clock;
        private final AtomicBoolean stop;
        private final SplitMix64 rng;
        final LeaseHistory history = new LeaseHistory();
        final Counts counts = new Counts();
        private final boolean deliversAndAcks;
        private final RaceLog log;

        PollerThread(RaceConfig cfg, String name, Databases dbs, AtomicInteger clock, AtomicBoolean stop, long seed, RaceLog log) {
            super("race-" + name);
            this.cfg = cfg;
            this.name = name;
            this.dbs = dbs;
            this.clock = clock;
            this.stop = stop;
            this.rng = new SplitMix64(seed);
            this.deliversAndAcks = cfg.relay().traits().deliversAndAcks();
            this.log = log;
        }

        private boolean chance(int percent) {
            return rng.nextInt(100) < percent;
        }

        @Override
        public void run() {
            Pauses pauses = point -> {
                // a kill inside a deliver-and-ack transaction, right after the handler's effect: what is open
                // rolls back, what the handler committed outside stays
                if (point == Pauses.Point.AFTER_HANDLER_EFFECT && chance(cfg.crashPercent())) {
                    throw new Pauses.Killed();
                }
                if (chance(cfg.stallPercent())) {
                    nap(1 + rng.nextInt(cfg.maxStallMillis()));
                }
            };
            try (SqlPoller poller = new SqlPoller(name, cfg.relay(), dbs, cfg.batch(), cfg.leaseTicks(), pauses)) {
                while (!stop.get()) {
                    int now = clock.get();
                    Action a;
                    try {
                        a = next(poller, now);
                    } catch (RelaySqlException ex) {
                        // a database-side timeout killed the transaction, or a lock wait ran past its limit (time-based:
                        // a loaded machine, never the relay's error): a crash there, as the model has one anywhere
                        if (ex.sessionEndedByDatabase() || ex.lockWaitTimedOut()) {
                            if (ex.sessionEndedByDatabase()) {
                                counts.sessionsEnded++;
                            } else {
                                counts.lockWaitsTimedOut++;
                            }
                            a = poller.crash(); // counted as a crash where it is recorded
                            counts.steps++;
                            record(a, now);
                            continue;
                        }
                        counts.errors++;
                        if (counts.firstError == null) {
                            counts.firstError = ex.getMessage().lines().findFirst().orElse("");
                        }
                        a = poller.crash(); // a real poller restarts after an unexpected error
                    }
                    counts.steps++;
                    record(a, now);
                    if (a.outcome() instanceof Outcome.Claimed c && c.grants().isEmpty()) {
                        Thread.yield();
                    }
                }
            } catch (SQLException ex) {
                throw new IllegalStateException(name + " could not connect", ex);
            }
        }

        private Action next(SqlPoller poller, int now) {
            PollerState.Phase phase = poller.state().phase();
            if (phase == PollerState.Phase.TO_DELIVER && chance(cfg.deliverFailPercent())) {
                return poller.deliverFails();
            }
            if (phase == PollerState.Phase.TO_ACK && chance(cfg.lostAckPercent())) {
                return poller.loseAck(now);
            }
            if (!poller.isIdle() && chance(cfg.crashPercent())) {
                return poller.crash();
            }
            return poller.runNext(now);
        }

        private void record(Action a, int now) {
            log.add(a, "race");
            Outcome o = a.outcome();
            if (o instanceof Outcome.Claimed c) {
                for (Outcome.Grant g : c.grants()) {
                    history.grant(new LeaseHistory.Granted(g.eventId(), name, g.token(), now, g.expiry()));
                    if (g.replacedExpired()) {
                        counts.reclaims++;
                    }
                }
            } else if (o instanceof Outcome.Acked ack) {
                history.acked(ack.eventId(), ack.token());
            } else if (o instanceof Outcome.Applied && a.step() instanceof Step.Deliver d && deliversAndAcks) {
                history.acked(d.eventId(), d.token()); // a deliver-and-ack relay acknowledged in the same commit
            } else if (o instanceof Outcome.Released rel) {
                history.released(rel.eventId(), rel.token());
            } else if (o instanceof Outcome.Duplicate) {
                counts.duplicates++;
            } else if (o instanceof Outcome.Stale s) {
                counts.stale++;
                if (s.currentToken() >= 0) {
                    history.seen(s.eventId(), s.currentToken());
                }
            } else if (o instanceof Outcome.AckLost) {
                counts.lostAcks++;
            } else if (o instanceof Outcome.DeliveryRolledBack) {
                counts.rollbacks++;
            } else if (o instanceof Outcome.Crashed) {
                counts.crashes++;
            }
        }
    }
}
