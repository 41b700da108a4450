package dev.relaycheck.stress.support;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayLogic.ProducerShape;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.RelayTransactions;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.StepResult;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * The producer's side of the relay database, which {@code ConcurrentRelayStore} does not model: the business
 * table and the outbox in one database whose every transaction is a pure {@link RelayTransactions} function
 * committed by compare-and-set on one immutable {@link RelayState} (snapshot isolation, the simplest correct
 * database there is). The producer commits the business write and the outbox insert as one transaction or,
 * for a logic whose {@link RelayLogic#producerShape()} is {@code BUSINESS_THEN_OUTBOX}, as two.
 */
public final class ProducerOutboxStore {

    /** What a poller's claim transaction read, and how many rows it leased. */
    public record ClaimView(RelayState read, int claimed) {
    }

    private final RelayLogic logic;
    private final int leaseTicks;
    private final AtomicReference<RelayState> db;

    public ProducerOutboxStore(RelayLogic logic, Scenario scenario) {
        if (!scenario.producedDuringRun()) {
            throw new IllegalArgumentException("scenario " + scenario.name() + " must produce its events during the run");
        }
        this.logic = logic;
        this.leaseTicks = scenario.leaseTicks();
        this.db = new AtomicReference<>(RelayState.initial(scenario));
    }

    /** The producing service's business write and outbox insert, shaped as the logic says. */
    public void produce(Event e) {
        if (logic.producerShape() == ProducerShape.ONE_TRANSACTION) {
            commit(s -> RelayTransactions.produce(s, e).state());
        } else {
            commit(s -> RelayTransactions.businessWriteOnly(s, e).state());
            commit(s -> RelayTransactions.outboxInsertOnly(s, e).state());
        }
    }

    /** A poller's claim transaction: reads one snapshot, leases up to {@code batch} rows in it. */
    public ClaimView claim(String poller, int batch) {
        while (true) {
            RelayState before = db.get();
            StepResult r = RelayTransactions.claim(logic, before, poller, batch, leaseTicks);
            if (db.compareAndSet(before, r.state())) {
                return new ClaimView(before, ((Outcome.Claimed) r.outcome()).grants().size());
            }
        }
    }

    public RelayState snapshot() {
        return db.get();
    }

    private void commit(UnaryOperator<RelayState> transaction) {
        while (true) {
            RelayState before = db.get();
            if (db.compareAndSet(before, transaction.apply(before))) {
                return;
            }
        }
    }

    public RelayLogic logic() {
        return logic;
    }
}
