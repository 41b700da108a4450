package dev.relaycheck.model.testsupport;

import dev.relaycheck.model.Invariant;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Logics as a careful user writes them: each overrides one form of one decision, and only that form, with a
 * known mistake in it, so a checker that asks another form than the model does (the most specific one)
 * checks the reference logic instead and passes it. Every form of every decision that has several; each
 * logic names the scenario that catches its mistake and the invariant it breaks there. Plus one correct
 * logic that implements only the newest form of each decision, so a checker that asks an older one meets a
 * decision without a body.
 */
public final class OverloadLogics {
    private OverloadLogics() {
    }

    /** One logic: its class, the form it overrides, and where and how it must fail (no scenario: it passes). */
    public record Case(String className, String form, String scenario, Invariant breaks) {
        public String id() {
            return className.substring(className.lastIndexOf('.') + 1);
        }
    }

    private static final String NO_HEAD = "{ return row.isPending() && row.unleasedAt(now); }";
    private static final String KEEPS_TOKEN = "{ return row.hasLease() ? row.lease().token() : lastIssued + 1; }";
    private static final String NEVER_EXPIRES = "{ return Lease.NEVER; }";
    private static final String IGNORES_TOKEN = "{ return row.isPending(); }";

    /** Each form overridden alone: its signature, the body with the mistake, the scenario and invariant. */
    private static final List<String[]> FORMS = List.of(
            new String[]{"ClaimThreeArg", "boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now)", NO_HEAD,
                    "aggregate-order", "AGGREGATE_ORDER"},
            new String[]{"ClaimFourArg", "boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now, String poller)",
                    NO_HEAD, "aggregate-order", "AGGREGATE_ORDER"},
            new String[]{"ClaimFiveArg",
                    "boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now, String poller, int pollerClock)",
                    NO_HEAD, "aggregate-order", "AGGREGATE_ORDER"},
            new String[]{"TokenTwoArg", "long issueToken(OutboxRow row, long lastIssued)", KEEPS_TOKEN,
                    "event-61-lost-ack", "STALE_ACK_REJECTED"},
            new String[]{"TokenThreeArg", "long issueToken(OutboxRow row, long lastIssued, String poller)", KEEPS_TOKEN,
                    "event-61-lost-ack", "STALE_ACK_REJECTED"},
            new String[]{"ExpiryTwoArg", "int leaseExpiry(int now, int leaseTicks)", NEVER_EXPIRES,
                    "event-61-lost-ack", "EVENTUAL_DELIVERY"},
            new String[]{"ExpiryThreeArg", "int leaseExpiry(int now, int leaseTicks, int pollerClock)", NEVER_EXPIRES,
                    "event-61-lost-ack", "EVENTUAL_DELIVERY"},
            new String[]{"AckTwoArg", "boolean acceptsAck(OutboxRow row, long token)", IGNORES_TOKEN,
                    "event-61-lost-ack", "STALE_ACK_REJECTED"},
            new String[]{"AckFourArg", "boolean acceptsAck(OutboxRow row, long token, String poller, int now)", IGNORES_TOKEN,
                    "event-61-lost-ack", "STALE_ACK_REJECTED"},
            new String[]{"ReleaseTwoArg", "boolean acceptsRelease(OutboxRow row, long token)", IGNORES_TOKEN,
                    "stale-ack-after-expiry", "STALE_ACK_REJECTED"},
            new String[]{"ReleaseFourArg", "boolean acceptsRelease(OutboxRow row, long token, String poller, int now)",
                    IGNORES_TOKEN, "stale-ack-after-expiry", "STALE_ACK_REJECTED"});

    private static final String HEAD = """
            package users;
            import dev.relaycheck.model.*;
            import java.util.List;
            """;

    /** The reference logic's decisions, each in its newest form only (the older ones keep the interface's default). */
    private static final String NEWEST_FORMS_ONLY = HEAD + """
            public class NewestFormsOnly implements RelayLogic {
                public String id() { return "NewestFormsOnly"; }
                public String description() { return "the reference decisions, newest forms only"; }
                public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now, String poller, int pollerClock) {
                    if (!row.isPending() || !row.unleasedAt(now)) return false;
                    for (OutboxRow o : outbox) {
                        if (o.isPending() && o.event().aggregate().equals(row.event().aggregate())
                                && o.event().seq() < row.event().seq()) return false;
                    }
                    return true;
                }
                public long issueToken(OutboxRow row, long lastIssued, String poller) { return lastIssued + 1; }
                public int leaseExpiry(int now, int leaseTicks) { throw new UnsupportedOperationException("asked the old form"); }
                public int leaseExpiry(int now, int leaseTicks, int pollerClock) { return now + leaseTicks; }
                public boolean acceptsAck(OutboxRow row, long token, String poller, int now) {
                    return row.isPending() && row.hasLease() && row.lease().token() == token;
                }
                public boolean acceptsRelease(OutboxRow row, long token, String poller, int now) {
                    return row.isPending() && row.hasLease() && row.lease().token() == token;
                }
                public String dedupKey(Event event, long token) { return event.id(); }
            }
            """;

    /** Every case: the forms overridden alone, then the newest forms only (which passes every scenario). */
    public static List<Case> cases() {
        List<Case> out = new java.util.ArrayList<>();
        for (String[] f : FORMS) {
            out.add(new Case("users." + f[0], f[1], f[3], Invariant.valueOf(f[4])));
        }
        out.add(new Case("users.NewestFormsOnly", "every decision's newest form", null, null));
        return out;
    }

    /** The sources of every case, class name to text. */
    public static Map<String, String> sources() {
        Map<String, String> m = new TreeMap<>();
        for (String[] f : FORMS) {
            m.put("users." + f[0], HEAD + "public class " + f[0] + " extends CorrectRelayLogic {\n"
                    + "    @Override public String id() { return \"" + f[0] + "\"; }\n"
                    + "    @Override public " + f[1] + " " + f[2] + "\n}\n");
        }
        m.put("users.NewestFormsOnly", NEWEST_FORMS_ONLY);
        return m;
    }

    /** Every case compiled outside the project into {@code dir/overloads.jar}. */
    public static Path jar(Path dir) {
        return UserJar.compile(dir, "overloads", sources());
    }
}
