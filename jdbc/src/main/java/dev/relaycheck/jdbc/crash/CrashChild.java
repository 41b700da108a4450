package dev.relaycheck.jdbc.crash;

import dev.relaycheck.jdbc.db.Databases;
import dev.relaycheck.jdbc.relay.RelaySpec;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.world.Action;
import dev.relaycheck.jdbc.world.Pauses;
import dev.relaycheck.jdbc.world.Producer;
import dev.relaycheck.jdbc.world.SqlPoller;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.ProducerState;
import dev.relaycheck.model.Scenario;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.util.Arrays;

/**
 * The relay process the crash-kill check kills. It produces the scenario's events, then polls: claim,
 * deliver, acknowledge, one transaction at a time at logical time 0. It prints {@code DID <step> <kind> <outcome>} after
 * each step (the report's trace of what the killed relay did), and at the {@code nth} commit of the chosen kind
 * {@code AT <cut> <step> <outcome>}, then blocks reading stdin; the parent kills it
 * there with SIGKILL. It never gets past that line on its own: reading anything, or end of input, makes
 * it exit 3, which the parent reports as "not killed".
 *
 * <p>Arguments: {@code OUTBOX_URL CONSUMER_URL CUT NTH BATCH RELAY...}, RELAY being the relay's own
 * arguments ({@code --target ID}, {@code --sql FILE} or {@code --adapter CLASS --classpath CP}).
 */
public final class CrashChild {
    static final int EXIT_RELEASED = 3;
    static final int EXIT_NEVER_REACHED = 4;
    static final int EXIT_BAD_ARGS = 2;
    private static final int FIXED_ARGS = 5;
    /** Starts the line the child prints after each step it took and was not killed at. */
    static final String DID = "DID ";

    private CrashChild() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        RelayUnderTest relay;
        try {
            if (args.length < FIXED_ARGS + 2 || CutPoint.byId(args[2]).isEmpty()) {
                throw new IllegalArgumentException("usage: CrashChild OUTBOX_URL CONSUMER_URL CUT NTH BATCH RELAY...");
            }
            relay = RelaySpec.parse(Arrays.asList(args).subList(FIXED_ARGS, args.length)).resolve();
        } catch (IllegalArgumentException e) {
            out.println("ERROR " + e.getMessage());
            System.exit(EXIT_BAD_ARGS);
            return;
        }
        CutPoint cut = CutPoint.byId(args[2]).orElseThrow();
        int nth = Integer.parseInt(args[3]);
        Scenario scenario = CrashWorld.scenario(Integer.parseInt(args[4]));
        Databases dbs = new Databases(args[0], args[1]);
        int seen = 0;
        int[] seenInside = {0};
        SqlPoller[] self = new SqlPoller[1];
        Pauses inside = point -> { // a cut inside the deliver-and-ack transaction: report where, block, be killed there
            if (point == cut.pausePoint() && ++seenInside[0] == nth) {
                var h = self[0].state().head();
                out.println("AT " + cut.id() + " " + new dev.relaycheck.model.Step.Deliver(CrashWorld.CHILD_POLLER, h.eventId(), h.token())
                        + " INSIDE " + point);
                waitToBeKilled();
                System.exit(EXIT_RELEASED);
            }
        };
        try (Connection producerConnection = dbs.openOutbox();
             SqlPoller poller = new SqlPoller(CrashWorld.CHILD_POLLER, relay, dbs, scenario.batch(), scenario.leaseTicks(),
                     cut.insideTransaction() ? inside : Pauses.NONE)) {
            self[0] = poller;
            Producer producer = new Producer(relay.shape(), relay.newAdapter(), scenario.events(), producerConnection,
                    new ProducerState(0, false));
            for (int step = 0; step < 1000; step++) {
                Action a = producer.finished() ? poller.runNext(0) : producer.produce();
                if (cut.matches(a.outcome()) && ++seen == nth) {
                    out.println("AT " + cut.id() + " " + a.step() + " " + describe(a.outcome()));
                    waitToBeKilled();
                    System.exit(EXIT_RELEASED);
                }
                out.println(DID + a.step() + " " + a.outcome().kind() + " " + a.outcome());
                if (a.outcome() instanceof Outcome.Claimed c && c.grants().isEmpty()) {
                    break;
                }
            }
        }
        out.println("DONE without reaching " + cut.id() + " #" + nth);
        System.exit(EXIT_NEVER_REACHED);
    }

    /** The outcome in a form the parent parses: kind, event, token where there is one. */
    static String describe(Outcome o) {
        if (o instanceof Outcome.Claimed c) {
            StringBuilder b = new StringBuilder("CLAIMED");
            c.grants().forEach(g -> b.append(' ').append(g.eventId()).append("/t").append(g.token()));
            return b.toString();
        }
        if (o instanceof Outcome.HalfApplied h) {
            return "HALF_APPLIED " + h.eventId() + " " + h.what();
        }
        return o.toString();
    }

    private static void waitToBeKilled() {
        try {
            System.in.read();
        } catch (IOException ignored) {
            // the parent's end of the pipe went away: exit as "released", never as a normal finish
        }
    }
}
