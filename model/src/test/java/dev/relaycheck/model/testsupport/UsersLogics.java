package dev.relaycheck.model.testsupport;

import java.nio.file.Path;
import java.util.Map;

/**
 * Logics written as users write them, as source text, for the tests that compile them outside the project and check
 * them through the CLI and through the JUnit API: a restarted node that re-claims its own leases, a deliver-and-ack
 * relay, two mistakes at once, a decision that ends the JVM, one that never returns, and one that answers the packed
 * engine's tables otherwise than anyone else.
 */
public final class UsersLogics {
    private UsersLogics() {
    }

    /** {@code com.acme.ReclaimOwn}. */
    public static final String RECLAIM_OWN = """
            package com.acme;
            import dev.relaycheck.model.*;
            import java.util.List;
            /** A restarted node takes its rows back: it may re-claim a row whose live lease it owns itself. */
            public final class ReclaimOwn extends CorrectRelayLogic {
                @Override public String id() { return "acme-reclaim-own"; }
                @Override public String description() { return "re-claims its own leases"; }
                @Override public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now, String poller) {
                    return row.isPending() && (row.unleasedAt(now) || row.lease().owner().equals(poller))
                            && isHeadOfAggregate(row, outbox);
                }
            }
            """;
    /** {@code com.acme.DeliverAndAck}. */
    public static final String DELIVER_AND_ACK = """
            package com.acme;
            import dev.relaycheck.model.*;
            /** processNow: the delivery and the ack commit in one transaction, with the reference's fences. */
            public final class DeliverAndAck extends CorrectRelayLogic {
                @Override public String id() { return "acme-deliver-and-ack"; }
                @Override public String description() { return "delivers and acks together"; }
                @Override public boolean deliversAndAcksTogether() { return true; }
            }
            """;
    /** {@code com.acme.TwoMistakes}. */
    public static final String TWO_MISTAKES = """
            package com.acme;
            import dev.relaycheck.model.*;
            import java.util.List;
            /** No head-of-aggregate rule, and an ack by event id. */
            public final class TwoMistakes extends CorrectRelayLogic {
                @Override public String id() { return "acme-two-mistakes"; }
                @Override public String description() { return "two mistakes"; }
                @Override public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now) {
                    return row.isPending() && (row.lease() == null || row.lease().expiredAt(now));
                }
                @Override public boolean acceptsAck(OutboxRow row, long token) { return row.isPending(); }
            }
            """;
    /** {@code com.acme.ExitsOnAck}. */
    public static final String EXITS = """
            package com.acme;
            import dev.relaycheck.model.*;
            public final class ExitsOnAck extends CorrectRelayLogic {
                @Override public String id() { return "acme-exits"; }
                @Override public String description() { return "ends the JVM"; }
                @Override public boolean acceptsAck(OutboxRow row, long token) { System.exit(0); return true; }
            }
            """;
    /** {@code com.acme.LoopsInClaim}. */
    public static final String LOOPS = """
            package com.acme;
            import dev.relaycheck.model.*;
            import java.util.List;
            public final class LoopsInClaim extends CorrectRelayLogic {
                @Override public String id() { return "acme-loops"; }
                @Override public String description() { return "never returns"; }
                @Override public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now) {
                    long spins = 0;
                    while (row.isPending()) { spins++; }
                    return spins > 0;
                }
            }
            """;
    /** {@code com.acme.TwoFaced}. */
    public static final String TWO_FACED = """
            package com.acme;
            import dev.relaycheck.model.*;
            import java.util.List;
            /** Answers the packed engine's tables as the reference does, anyone else without the head-of-aggregate rule. */
            public final class TwoFaced extends CorrectRelayLogic {
                @Override public String id() { return "acme-two-faced"; }
                @Override public String description() { return "tells the engines apart"; }
                @Override public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now) {
                    boolean tables = StackWalker.getInstance().walk(s -> s.anyMatch(f -> f.getClassName().endsWith(".LogicTable")));
                    return tables ? super.isClaimable(row, outbox, now) : row.isPending() && row.unleasedAt(now);
                }
            }
            """;

    /** Every class above, compiled into {@code dir/acme.jar}; returns the jar. */
    public static Path jar(Path dir) {
        return UserJar.compile(dir, "acme", Map.of("com.acme.ReclaimOwn", RECLAIM_OWN, "com.acme.DeliverAndAck", DELIVER_AND_ACK,
                "com.acme.TwoMistakes", TWO_MISTAKES, "com.acme.ExitsOnAck", EXITS, "com.acme.LoopsInClaim", LOOPS,
                "com.acme.TwoFaced", TWO_FACED));
    }
}
