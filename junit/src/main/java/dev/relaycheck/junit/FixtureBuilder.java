package dev.relaycheck.junit;

import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.relay.SqlVariant;
import dev.relaycheck.jdbc.world.UserCode;
import dev.relaycheck.model.Event;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a {@link RelayFixture} starts from: the relay under test, its pollers, the rows already in the outbox
 * (PENDING, DELIVERED or leased to a poller that is gone), the events the test will produce, and the team's
 * own tables, business write and consumer handler. {@link #start()} creates fresh H2 databases and loads it
 * all; nothing else needs resetting.
 */
public final class FixtureBuilder {
    /** Stock a SKU gets when the test does not say: relaycheck's own bookkeeping of effects, not the team's. */
    static final int DEFAULT_STOCK = 1000;

    private RelayUnderTest relay;
    private final List<String> pollers = new ArrayList<>();
    private final Map<String, Integer> stock = new TreeMap<>();
    private final List<Seeding.Row> committed = new ArrayList<>();
    private final List<Event> toProduce = new ArrayList<>();
    private final List<String> outboxDdl = new ArrayList<>();
    private final List<String> consumerDdl = new ArrayList<>();
    private UserCode.BusinessWrite businessWrite = UserCode.NONE.businessWrite();
    private UserCode.Handler consumer = UserCode.NONE.consumer();
    private int batch = 1;
    private int leaseTicks = 2;
    private boolean judged = true;

    FixtureBuilder(RelayUnderTest relay) {
        this.relay = relay;
    }

    /** The relay this builder names (the property checks run it without a fixture). */
    RelayUnderTest relay() {
        return relay;
    }

    /**
     * Runs relaycheck's side of the world with one of the catalogue's mistakes (a consumer without dedup, a
     * producer that commits twice, an ack before the delivery, ...) around this relay: a negative control for
     * the test, which must then fail. Mistakes in a relay's own SQL are not relaycheck's to make: use
     * {@link RelayFixture#forCatalogueMistake} for those (the shipped SQL relay with the mistake).
     */
    public FixtureBuilder withMistake(String catalogueId) {
        SqlVariant v = SqlVariant.byId(catalogueId).filter(x -> !x.isCorrect())
                .orElseThrow(() -> new IllegalArgumentException("unknown catalogue mistake '" + catalogueId + "'"));
        if (!v.edits().isEmpty()) {
            throw new IllegalArgumentException("'" + catalogueId + "' is a mistake in the relay's own SQL ("
                    + v.statement() + "); use RelayFixture.forCatalogueMistake(\"" + catalogueId + "\")");
        }
        RelayUnderTest r = relay;
        relay = new RelayUnderTest(r.spec(), r.id() + " with " + catalogueId, false, v.shape(), r.adapters());
        return this;
    }

    /** The pollers, in the order {@link RelayFixture#drain} runs them (default: one, {@code p1}). */
    public FixtureBuilder pollers(String... names) {
        pollers.addAll(List.of(names));
        return this;
    }

    /** relaycheck's stock for a SKU (default {@value #DEFAULT_STOCK}); its effects are taken from it. */
    public FixtureBuilder stock(String sku, int units) {
        stock.put(sku, units);
        return this;
    }

    /** A row committed before the test starts, PENDING; its payload says what it does. */
    public FixtureBuilder pending(String id, String sku, int quantity) {
        return row(new Event(id, sku, nextSeq(), quantity), Seed.PENDING, null);
    }

    /** A row committed before the test starts, PENDING, with the payload the test gives. */
    public FixtureBuilder pending(String id, String sku, int quantity, String payload) {
        return row(new Event(id, sku, nextSeq(), quantity, payload), Seed.PENDING, null);
    }

    /** A row already published: delivered to the consumer (effect applied) and acknowledged, through the relay itself. */
    public FixtureBuilder delivered(String id, String sku, int quantity) {
        return row(new Event(id, sku, nextSeq(), quantity), Seed.DELIVERED, null);
    }

    /**
     * A row leased at tick 0 to {@code owner}: one of the fixture's pollers, which then holds the row, not yet
     * delivered (a live poller, stalled); or any other name, a poller that is gone (it crashed holding the row, nothing
     * delivered). The lease runs out at tick {@code leaseTicks}, after which another poller may take it.
     */
    public FixtureBuilder leased(String id, String sku, int quantity, String owner) {
        return row(new Event(id, sku, nextSeq(), quantity), Seed.LEASED, owner);
    }

    /** An event the test commits itself with {@link RelayFixture#produce()}, in declaration order, after the rows above. */
    public FixtureBuilder toProduce(String id, String sku, int quantity) {
        toProduce.add(new Event(id, sku, nextSeq(), quantity));
        return this;
    }

    /** {@link #toProduce(String, String, int)} with the payload the test gives. */
    public FixtureBuilder toProduce(String id, String sku, int quantity, String payload) {
        toProduce.add(new Event(id, sku, nextSeq(), quantity, payload));
        return this;
    }

    /**
     * Turns off judging every step by the model's invariants, so a test can watch a broken relay go on (its
     * delivery log, its tables) instead of failing at the first broken invariant. The test's own assertions
     * and {@link RelayFixture#runUntilQuiet}'s still fail it.
     */
    public FixtureBuilder withoutInvariantChecks() {
        judged = false;
        return this;
    }

    /** How many rows one claim takes (default 1). */
    public FixtureBuilder batch(int rows) {
        batch = rows;
        return this;
    }

    /** How many ticks a lease lasts (default 2). */
    public FixtureBuilder leaseTicks(int ticks) {
        leaseTicks = ticks;
        return this;
    }

    /** The team's own tables on the outbox (service) database, created before anything runs. */
    public FixtureBuilder serviceTables(String... ddl) {
        outboxDdl.addAll(List.of(ddl));
        return this;
    }

    /** The team's own tables on the consumer's database. */
    public FixtureBuilder consumerTables(String... ddl) {
        consumerDdl.addAll(List.of(ddl));
        return this;
    }

    /** The service's business write, run inside relaycheck's producer transaction next to the outbox insert. */
    public FixtureBuilder businessWrite(UserCode.BusinessWrite write) {
        businessWrite = write;
        return this;
    }

    /** The consumer's handler, run inside relaycheck's consumer transaction next to the dedup marker. */
    public FixtureBuilder consumer(UserCode.Handler handler) {
        consumer = handler;
        return this;
    }

    /** Creates fresh databases, loads the rows and returns the running fixture (close it: try-with-resources). */
    public RelayFixture start() {
        Map<String, Integer> s = new LinkedHashMap<>(stock);
        committed.forEach(r -> s.putIfAbsent(r.event().aggregate(), DEFAULT_STOCK));
        toProduce.forEach(e -> s.putIfAbsent(e.aggregate(), DEFAULT_STOCK));
        return new RelayFixture(relay, pollers.isEmpty() ? List.of("p1") : List.copyOf(pollers), s, List.copyOf(committed),
                List.copyOf(toProduce), batch, leaseTicks, List.copyOf(outboxDdl), List.copyOf(consumerDdl),
                new UserCode(businessWrite, consumer), judged);
    }

    private FixtureBuilder row(Event e, Seed seed, String owner) {
        if (!toProduce.isEmpty()) {
            throw new IllegalStateException("declare the rows committed before the test (" + e.id()
                    + ") before the events the test produces: the outbox holds them in commit order");
        }
        committed.add(new Seeding.Row(e, seed, owner));
        return this;
    }

    private int nextSeq() {
        return committed.size() + toProduce.size() + 1;
    }
}
