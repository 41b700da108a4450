package dev.relaycheck.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The whole world at one instant: the outbox, the token counter, the clock, the business table, the
 * consumer's database, each poller's local memory, the producer, and how many faults were spent.
 * Immutable; every step yields a new state.
 *
 * @param clock          logical time; only a Tick moves it
 * @param lastToken      the greatest fencing token issued so far (0: none yet)
 * @param rows           outbox rows in sequence order
 * @param businessWrites ids of events whose business write committed
 * @param consumer       the consumer's database
 * @param pollers        local state of each poller, in the scenario's poller order
 * @param producer       the producing service
 * @param faults         faults spent so far (each kind is bounded by the scenario)
 * @param surroundings   what surrounds the rows and pollers: renewals spent, clock skews, in-flight producer
 *                       transactions, a cursor relay's cursor, the cleanup's deletions ({@link Surroundings#NONE} in
 *                       every scenario without renewals, skew, open producers, a cursor or a cleanup)
 */
public record RelayState(int clock,
                         long lastToken,
                         List<OutboxRow> rows,
                         SortedSet<String> businessWrites,
                         ConsumerState consumer,
                         List<PollerState> pollers,
                         ProducerState producer,
                         FaultCounts faults,
                         Surroundings surroundings) {

    /** Faults spent so far. */
    public record FaultCounts(int crashes, int lostAcks, int deliverFails, int produceFails) {
        public static final FaultCounts NONE = new FaultCounts(0, 0, 0, 0);

        FaultCounts crash() {
            return new FaultCounts(crashes + 1, lostAcks, deliverFails, produceFails);
        }

        FaultCounts lostAck() {
            return new FaultCounts(crashes, lostAcks + 1, deliverFails, produceFails);
        }

        FaultCounts deliverFail() {
            return new FaultCounts(crashes, lostAcks, deliverFails + 1, produceFails);
        }

        FaultCounts produceFail() {
            return new FaultCounts(crashes, lostAcks, deliverFails, produceFails + 1);
        }
    }

    /** A state with nothing around its rows and pollers ({@link Surroundings#NONE}): what every store builds. */
    public RelayState(int clock, long lastToken, List<OutboxRow> rows, SortedSet<String> businessWrites,
                      ConsumerState consumer, List<PollerState> pollers, ProducerState producer, FaultCounts faults) {
        this(clock, lastToken, rows, businessWrites, consumer, pollers, producer, faults, Surroundings.NONE);
    }

    public RelayState {
        java.util.Objects.requireNonNull(surroundings, "surroundings");
        rows = List.copyOf(rows);
        businessWrites = Sorted.copySet(businessWrites);
        pollers = List.copyOf(pollers);
    }

    /** The state a scenario starts in: pre-committed events are already in the outbox, stock is initial. */
    public static RelayState initial(Scenario scenario) {
        List<OutboxRow> rows = new ArrayList<>();
        TreeSet<String> business = new TreeSet<>();
        if (!scenario.producedDuringRun()) {
            for (Event e : scenario.events()) {
                rows.add(OutboxRow.pending(e));
                business.add(e.id());
            }
        }
        List<PollerState> pollers = new ArrayList<>();
        for (int i = 0; i < scenario.pollers().size(); i++) {
            pollers.add(PollerState.IDLE);
        }
        int next = scenario.producedDuringRun() ? 0 : scenario.events().size();
        return new RelayState(0, 0, rows, business, ConsumerState.initial(scenario.initialStock()), pollers,
                new ProducerState(next, false), FaultCounts.NONE);
    }

    public Optional<OutboxRow> row(String eventId) {
        for (OutboxRow r : rows) {
            if (r.id().equals(eventId)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    public PollerState poller(int index) {
        return pollers.get(index);
    }

    RelayState withRows(List<OutboxRow> newRows) {
        return new RelayState(clock, lastToken, newRows, businessWrites, consumer, pollers, producer, faults, surroundings);
    }

    RelayState withRow(OutboxRow row) {
        List<OutboxRow> copy = new ArrayList<>(rows);
        for (int i = 0; i < copy.size(); i++) {
            if (copy.get(i).id().equals(row.id())) {
                copy.set(i, row);
                return withRows(copy);
            }
        }
        throw new IllegalStateException("no outbox row " + row.id());
    }

    /** The outbox without {@code deleted} (rows the cleanup took). */
    RelayState withoutRows(List<OutboxRow> deleted) {
        List<OutboxRow> copy = new ArrayList<>(rows);
        copy.removeIf(r -> deleted.stream().anyMatch(d -> d.id().equals(r.id())));
        return withRows(copy);
    }

    /** Whether a poller holds {@code eventId} in its batch (so it may still deliver it). */
    public boolean held(String eventId) {
        return pollers.stream().anyMatch(p -> p.batch().stream().anyMatch(h -> h.eventId().equals(eventId)));
    }

    RelayState withLastToken(long token) {
        return new RelayState(clock, token, rows, businessWrites, consumer, pollers, producer, faults, surroundings);
    }

    RelayState withConsumer(ConsumerState c) {
        return new RelayState(clock, lastToken, rows, businessWrites, c, pollers, producer, faults, surroundings);
    }

    RelayState withPoller(int index, PollerState p) {
        return new RelayState(clock, lastToken, rows, businessWrites, consumer, Sorted.replace(pollers, index, p),
                producer, faults, surroundings);
    }

    RelayState withProducer(ProducerState p) {
        return new RelayState(clock, lastToken, rows, businessWrites, consumer, pollers, p, faults, surroundings);
    }

    RelayState withBusinessWrite(String eventId) {
        TreeSet<String> copy = new TreeSet<>(businessWrites);
        copy.add(eventId);
        return new RelayState(clock, lastToken, rows, copy, consumer, pollers, producer, faults, surroundings);
    }

    RelayState withFaults(FaultCounts f) {
        return new RelayState(clock, lastToken, rows, businessWrites, consumer, pollers, producer, f, surroundings);
    }

    RelayState ticked() {
        return new RelayState(clock + 1, lastToken, rows, businessWrites, consumer, pollers, producer, faults, surroundings);
    }

    /** This state with its surroundings replaced. */
    public RelayState withSurroundings(Surroundings h) {
        return new RelayState(clock, lastToken, rows, businessWrites, consumer, pollers, producer, faults, h);
    }

    /** Inserts an outbox row keeping sequence order. */
    RelayState withInsertedRow(OutboxRow row) {
        List<OutboxRow> copy = new ArrayList<>(rows);
        int at = 0;
        while (at < copy.size() && copy.get(at).event().seq() < row.event().seq()) {
            at++;
        }
        copy.add(at, row);
        return withRows(copy);
    }

    /** A compact one-line rendering, used in traces. */
    public String describe() {
        return "t=" + clock + " tok=" + lastToken + " rows=" + rows + " markers=" + consumer.markers().keySet()
                + " stock=" + consumer.stock() + " pollers=" + pollers + (surroundings.isNone() ? "" : " " + surroundings);
    }
}
