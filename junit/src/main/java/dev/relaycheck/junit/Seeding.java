package dev.relaycheck.junit;

import dev.relaycheck.jdbc.adapter.ClaimRequest;
import dev.relaycheck.jdbc.adapter.ClaimedRow;
import dev.relaycheck.jdbc.adapter.RelayAdapter;
import dev.relaycheck.jdbc.db.Databases;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.world.ConsumerSql;
import dev.relaycheck.jdbc.world.Producer;
import dev.relaycheck.jdbc.world.SqlWorld;
import dev.relaycheck.jdbc.world.UserCode;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Outcome;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Puts a fixture's starting rows in, through the relay itself, at tick 0: every row is committed by relaycheck's
 * producer (business write and the relay's enqueue); a DELIVERED row is then claimed, delivered to the consumer
 * and acknowledged, a leased one claimed by its owner, who is then gone. So the tables hold what the relay's
 * own history would have left, in the relay's own format.
 */
final class Seeding {
    /** A row the test declared: its event, how it is seeded, and the poller holding its lease (or null). */
    record Row(Event event, Seed seed, String owner) {
    }

    private static final String SEEDER = "seeder";

    private final SqlWorld world;
    private final Databases dbs;
    private final RelayUnderTest relay;
    private final UserCode user;
    private final int leaseTicks;
    private final FixtureTrace trace;

    Seeding(SqlWorld world, Databases dbs, RelayUnderTest relay, UserCode user, int leaseTicks, FixtureTrace trace) {
        this.world = world;
        this.dbs = dbs;
        this.relay = relay;
        this.user = user;
        this.leaseTicks = leaseTicks;
        this.trace = trace;
    }

    void load(List<Row> rows) {
        Producer producer = world.producer();
        for (Row ignored : rows) {
            do {
                producer.produce();
            } while (producer.state().businessOnly());
        }
        try (Connection outbox = dbs.openOutbox(); Connection consumer = dbs.openConsumer()) {
            RelayAdapter adapter = relay.newAdapter();
            ConsumerSql consumerSql = new ConsumerSql(relay.shape(), user);
            for (Row r : rows) {
                if (r.seed() != Seed.PENDING) {
                    seed(r, adapter, consumerSql, outbox, consumer, rows.size());
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot seed the fixture's rows: " + e.getMessage(), e);
        }
    }

    private void seed(Row r, RelayAdapter adapter, ConsumerSql consumerSql, Connection outbox, Connection consumer,
                      int batch) throws SQLException {
        Event e = r.event();
        String owner = r.seed() == Seed.LEASED ? r.owner() : SEEDER;
        ClaimedRow mine = null;
        for (ClaimedRow c : claim(adapter, outbox, new ClaimRequest(owner, 0, batch, leaseTicks))) {
            if (c.event().id().equals(e.id())) {
                mine = c;
            } else {
                adapter.release(outbox, c.event().id(), c.token(), 0); // only the seeded row keeps its lease
            }
        }
        outbox.commit();
        if (mine == null) {
            throw new IllegalStateException("cannot start with " + e.id() + " " + r.seed() + ": the relay's claim did not hand it out "
                    + "(is an earlier event of " + e.aggregate() + " still PENDING?)");
        }
        if (r.seed() == Seed.DELIVERED) {
            Outcome o = consumerSql.deliver(consumer, mine.event(), mine.token());
            if (o instanceof Outcome.HalfApplied) {
                consumerSql.deliverSecondHalf(consumer, mine.event(), mine.token());
            }
            adapter.ack(outbox, e.id(), mine.token(), 0);
            outbox.commit();
        }
        boolean live = r.seed() == Seed.LEASED && world.scenario().pollers().contains(owner);
        if (live) {
            world.poller(owner).holds(List.of(mine));
        }
        trace.seeded(e.id() + " " + r.seed() + (r.seed() == Seed.LEASED ? " to " + owner + (live ? " (which holds it, not yet "
                + "delivered)" : " (gone)") + " with t" + mine.token() + " until tick " + mine.expiry() : ""));
    }

    /** The relay's claim, in its one transaction or, for a check-then-act relay, its two. */
    private static List<ClaimedRow> claim(RelayAdapter adapter, Connection outbox, ClaimRequest r) throws SQLException {
        if (!adapter.claimsInTwoTransactions()) {
            return adapter.claim(outbox, r);
        }
        List<Event> read = adapter.claimRead(outbox, r);
        outbox.commit();
        return adapter.claimWrite(outbox, r, read);
    }

    static void userTables(Databases dbs, List<String> outboxDdl, List<String> consumerDdl) throws SQLException {
        try (Connection o = dbs.openOutbox(); Connection c = dbs.openConsumer()) {
            run(o, outboxDdl);
            run(c, consumerDdl);
        }
    }

    private static void run(Connection c, List<String> ddl) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (String s : ddl) {
                st.execute(s);
            }
        }
        c.commit();
    }
}
