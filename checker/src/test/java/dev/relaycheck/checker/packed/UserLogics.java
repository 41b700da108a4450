package dev.relaycheck.checker.packed;

import dev.relaycheck.checker.cli.ChildCli;
import dev.relaycheck.model.RelayLogic;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Logics as a user writes them, compiled here into a jar outside the project and loaded from it: each
 * decides one thing in a way no shipped logic does (knows the poller or the clock, keys markers by token,
 * grants a longer lease, claims delivered rows, does not dedup...), so the packed engine's tables meet every
 * kind of argument and answer.
 */
final class UserLogics {
    private static final String HEAD = """
            package users;
            import dev.relaycheck.model.*;
            import java.util.List;
            """;

    /** A copy of the correct logic's decisions, not a subclass of it: what the bench measures. */
    static final String COPY_OF_CORRECT = """
            public class CopyOfCorrect implements RelayLogic {
                public String id() { return "copy-of-correct"; }
                public String description() { return "the correct logic's decisions, in a user's jar"; }
                public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now) {
                    if (!row.isPending() || !row.unleasedAt(now)) return false;
                    for (OutboxRow o : outbox) {
                        if (o.isPending() && o.event().aggregate().equals(row.event().aggregate())
                                && o.event().seq() < row.event().seq()) return false;
                    }
                    return true;
                }
                public long issueToken(OutboxRow row, long lastIssued) { return lastIssued + 1; }
                public int leaseExpiry(int now, int leaseTicks) { return now + leaseTicks; }
                public boolean acceptsAck(OutboxRow row, long token) {
                    return row.isPending() && row.hasLease() && row.lease().token() == token;
                }
                public boolean acceptsRelease(OutboxRow row, long token) {
                    return row.isPending() && row.hasLease() && row.lease().token() == token;
                }
                public String dedupKey(Event event, long token) { return event.id(); }
            }
            """;

    private static final Map<String, String> SOURCES = sources();

    private static Map<String, String> sources() {
        Map<String, String> m = new TreeMap<>();
        m.put("users.CopyOfCorrect", HEAD + COPY_OF_CORRECT);
        // the claim knows the poller (p2 leaves E1 to the others), the ack and release the clock (time-fenced)
        m.put("users.PollerAndClock", HEAD + """
                public class PollerAndClock extends CorrectRelayLogic {
                    public String id() { return "poller-and-clock"; }
                    public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now, String poller) {
                        return super.isClaimable(row, outbox, now) && !(poller.equals("p2") && row.id().equals("E1"));
                    }
                    public boolean acceptsAck(OutboxRow row, long token, String poller, int now) {
                        return super.acceptsAck(row, token) && row.lease().owner().equals(poller) && now < row.lease().expiry() + 1;
                    }
                    public boolean acceptsRelease(OutboxRow row, long token, String poller, int now) {
                        return super.acceptsRelease(row, token) && now < row.lease().expiry();
                    }
                }
                """);
        // markers keyed per delivery (a retry's new id): dedup defeated, as the catalogue's new-id-on-retry
        m.put("users.TokenKeyed", HEAD + """
                public class TokenKeyed extends CorrectRelayLogic {
                    public String id() { return "token-keyed"; }
                    public String dedupKey(Event event, long token) { return event.id() + "#" + token; }
                }
                """);
        // a lease twice as long, and an ack that accepts any unleased row (a DELIVERED one stays as it is)
        m.put("users.LongLeaseLooseAck", HEAD + """
                public class LongLeaseLooseAck extends CorrectRelayLogic {
                    public String id() { return "long-lease-loose-ack"; }
                    public int leaseExpiry(int now, int leaseTicks) { return now + 2 * leaseTicks; }
                    public boolean acceptsAck(OutboxRow row, long token) {
                        return !row.hasLease() || row.lease().token() == token;
                    }
                }
                """);
        // no dedup lookup, and markers keyed by aggregate: a second event of an aggregate takes the first's key
        m.put("users.AggregateKeyNoCheck", HEAD + """
                public class AggregateKeyNoCheck extends CorrectRelayLogic {
                    public String id() { return "aggregate-key-no-check"; }
                    public boolean consumerChecksMarker() { return false; }
                    public String dedupKey(Event event, long token) { return event.aggregate(); }
                }
                """);
        // dedup by aggregate with the lookup: a later event of an aggregate is taken for a duplicate
        m.put("users.AggregateKey", HEAD + """
                public class AggregateKey extends CorrectRelayLogic {
                    public String id() { return "aggregate-key"; }
                    public String dedupKey(Event event, long token) { return event.aggregate(); }
                }
                """);
        // the token is not bumped on a re-claim, and an ack ignores the token: two catalogue mistakes at once
        m.put("users.KeepsTokenAcksAny", HEAD + """
                public class KeepsTokenAcksAny extends CorrectRelayLogic {
                    public String id() { return "keeps-token-acks-any"; }
                    public long issueToken(OutboxRow row, long lastIssued) { return row.hasLease() ? row.lease().token() : lastIssued + 1; }
                    public boolean acceptsAck(OutboxRow row, long token) { return row.isPending(); }
                }
                """);
        // the marker commits in its own transaction before the effect, keyed per delivery
        m.put("users.SplitConsumer", HEAD + """
                public class SplitConsumer extends CorrectRelayLogic {
                    public String id() { return "split-consumer"; }
                    public ConsumerShape consumerShape() { return ConsumerShape.MARKER_THEN_EFFECT; }
                    public boolean acksBeforeDelivering() { return true; }
                }
                """);
        // fenced by the row's own version (optimistic locking, the gruelbox and db-scheduler shape)
        m.put("users.VersionFenced", HEAD + """
                public class VersionFenced extends CorrectRelayLogic {
                    public String id() { return "version-fenced"; }
                    public TokenPolicy tokenPolicy() { return TokenPolicy.PER_ROW_VERSION; }
                    public long issueToken(OutboxRow row, long version) { return version + 1; }
                }
                """);
        // the consumer's effect and the row's fenced delete commit in one transaction (processNow)
        m.put("users.DeliverAndAck", HEAD + """
                public class DeliverAndAck extends CorrectRelayLogic {
                    public String id() { return "deliver-and-ack"; }
                    public boolean deliversAndAcksTogether() { return true; }
                }
                """);
        // dedup markers kept for one lease and a tick: a late redelivery after a lost ack can outlive them
        m.put("users.ShortRetention", HEAD + """
                public class ShortRetention extends CorrectRelayLogic {
                    public String id() { return "short-retention"; }
                    public java.util.OptionalInt markerRetention(int leaseTicks) { return java.util.OptionalInt.of(leaseTicks + 1); }
                }
                """);
        // the poller does not read an ack's row count and unlocks by id after it; acks by owner mark every row it holds
        m.put("users.OwnerBatchUnlock", HEAD + """
                public class OwnerBatchUnlock extends CorrectRelayLogic {
                    public String id() { return "owner-batch-unlock"; }
                    public boolean readsSettleResult() { return false; }
                    public boolean unlocksAfterSettling() { return true; }
                    public List<String> rowsAckTouches(OutboxRow acked, long token, String poller, List<Held> batch,
                                                       List<OutboxRow> outbox) {
                        List<String> ids = new java.util.ArrayList<>();
                        for (OutboxRow r : outbox) {
                            if (r.hasLease() && r.lease().owner().equals(poller)) ids.add(r.id());
                        }
                        if (!ids.contains(acked.id())) ids.add(0, acked.id());
                        return ids;
                    }
                }
                """);
        // a heartbeat fenced by owner and token, a lease judged on the poller's clock, a cleanup of old delivered rows,
        // and a cursor that waits for open producer transactions
        m.put("users.HazardShapes", HEAD + """
                public class HazardShapes extends CorrectRelayLogic {
                    public String id() { return "hazard-shapes"; }
                    public boolean acceptsRenewal(OutboxRow row, long token, String poller, int now) {
                        return row.isPending() && row.hasLease() && row.lease().token() == token
                                && row.lease().owner().equals(poller) && !row.lease().expiredAt(now);
                    }
                    public int leaseExpiry(int now, int leaseTicks, int pollerClock) { return Math.max(now, pollerClock) + leaseTicks; }
                    public boolean cleanupTakes(OutboxRow row, int now) { return row.status() == RowStatus.DELIVERED && now >= 1; }
                    public CursorRule cursorRule() { return CursorRule.WAITS_FOR_IN_FLIGHT; }
                }
                """);
        // tokens from a sequence with a step of 7: exact tokens outgrow the packed field on long runs, renumbered they fit
        m.put("users.SequenceStep", HEAD + """
                public class SequenceStep extends CorrectRelayLogic {
                    public String id() { return "sequence-step"; }
                    public long issueToken(OutboxRow row, long lastIssued) { return lastIssued + 7; }
                }
                """);
        // the lease column is written with the claim's own timestamp: the lease is over as it begins
        m.put("users.LeaseExpiresAtOnce", HEAD + """
                public class LeaseExpiresAtOnce extends CorrectRelayLogic {
                    public String id() { return "lease-expires-at-once"; }
                    public int leaseExpiry(int now, int leaseTicks) { return now; }
                }
                """);
        return m;
    }

    /**
     * A logic that reads a token's value (an ack accepts only odd tokens), so renumbering tokens changes its answers:
     * not among {@link #all()}, whose logics compare tokens only by order and equality.
     */
    static final String READS_TOKEN_VALUES = HEAD + """
            public class OddTokensOnly extends CorrectRelayLogic {
                public String id() { return "odd-tokens-only"; }
                public long issueToken(OutboxRow row, long lastIssued) { return lastIssued + 2; }
                public boolean acceptsAck(OutboxRow row, long token) { return super.acceptsAck(row, token) && token % 4 == 1; }
            }
            """;

    private static List<RelayLogic> loaded;

    private UserLogics() {
    }

    /** Whether a logic's exact tokens outgrow the packed field on the longer scenarios: it runs renumbered there. */
    static boolean outgrowsExactTokens(RelayLogic logic) {
        return logic.id().equals("sequence-step") || logic.id().equals("lease-expires-at-once");
    }

    /** Every logic above, compiled once into a jar in a temporary folder and loaded from it. */
    static synchronized List<RelayLogic> all() {
        if (loaded == null) {
            try {
                Path dir = Files.createTempDirectory("relaycheck-user-logics");
                Path jar = ChildCli.compileJar(dir, "user-logics", SOURCES);
                URLClassLoader loader = new URLClassLoader(new URL[]{jar.toUri().toURL()}, UserLogics.class.getClassLoader());
                List<RelayLogic> out = new ArrayList<>();
                for (String name : SOURCES.keySet()) {
                    out.add((RelayLogic) loader.loadClass(name).getDeclaredConstructor().newInstance());
                }
                loaded = List.copyOf(out);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
        return loaded;
    }
}
