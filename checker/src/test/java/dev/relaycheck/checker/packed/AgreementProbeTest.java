package dev.relaycheck.checker.packed;

import dev.relaycheck.model.CorrectRelayLogic;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The probe that runs before a user's logic is trusted to the packed engine: silent where the engines agree
 * (every user logic of the agreement tests), and, where the packed engine is given another logic than the
 * readable model (what a misread overload amounts to), one line naming the decision that differs and the
 * state it differs in.
 */
class AgreementProbeTest {
    private static final RelayLogic CORRECT = new Named("reference-copy");

    /** The reference logic under a name of its own, so it runs on the tables as a user's logic does. */
    private static class Named extends CorrectRelayLogic {
        private final String id;

        Named(String id) {
            this.id = id;
        }

        @Override
        public String id() {
            return id;
        }
    }

    @Test
    void theEnginesAgreeOnEveryUsersLogic() {
        for (RelayLogic logic : UserLogics.all()) {
            for (Scenario s : List.of(ReferenceScenarios.mixed(), ReferenceScenarios.crashRestart())) {
                if (!UserLogics.outgrowsExactTokens(logic)) {
                    assertThat(AgreementProbe.disagreement(logic, s, 1)).as(logic.id() + " on " + s.name()).isEmpty();
                }
                if (logic.tokenPolicy() == RelayLogic.TokenPolicy.GLOBAL_COUNTER) {
                    assertThat(AgreementProbe.disagreement(logic, s, 1, true)).as(logic.id() + " renumbered on " + s.name()).isEmpty();
                }
            }
        }
    }

    @Test
    void aClaimThatDiffersIsNamedIsClaimable() {
        RelayLogic noHead = new Named("no-head") {
            @Override
            public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now, String poller, int pollerClock) {
                return row.isPending() && row.unleasedAt(now);
            }
        };
        assertNames(noHead, ReferenceScenarios.aggregateOrder(), "isClaimable");
    }

    @Test
    void aTokenThatDiffersIsNamedIssueToken() {
        RelayLogic keeps = new Named("keeps-token") {
            @Override
            public long issueToken(OutboxRow row, long lastIssued, String poller) {
                return row.hasLease() ? row.lease().token() : lastIssued + 1;
            }
        };
        assertNames(keeps, ReferenceScenarios.event61LostAck(), "issueToken");
    }

    @Test
    void anExpiryThatDiffersIsNamedLeaseExpiry() {
        RelayLogic later = new Named("later-expiry") { // the same lease at tick 0, so the same clock bound
            @Override
            public int leaseExpiry(int now, int leaseTicks, int pollerClock) {
                return now == 0 ? leaseTicks : now + leaseTicks + 1;
            }
        };
        assertNames(later, ReferenceScenarios.event61LostAck(), "leaseExpiry");
    }

    @Test
    void fencesThatDifferAreNamedAcceptsAckAndAcceptsRelease() {
        RelayLogic ack = new Named("loose-ack") {
            @Override
            public boolean acceptsAck(OutboxRow row, long token, String poller, int now) {
                return row.isPending();
            }
        };
        assertNames(ack, ReferenceScenarios.event61LostAck(), "acceptsAck");
        RelayLogic release = new Named("loose-release") {
            @Override
            public boolean acceptsRelease(OutboxRow row, long token, String poller, int now) {
                return row.isPending();
            }
        };
        assertNames(release, ReferenceScenarios.staleAckAfterExpiry(), "acceptsRelease");
    }

    @Test
    void aMarkerKeyThatDiffersIsNamedDedupKey() {
        RelayLogic byAggregate = new Named("aggregate-key") {
            @Override
            public String dedupKey(Event event, long token) {
                return event.aggregate();
            }
        };
        assertNames(byAggregate, ReferenceScenarios.mixed(), "dedupKey");
    }

    private static void assertNames(RelayLogic readable, Scenario s, String decision) {
        Optional<String> line = AgreementProbe.disagreement(readable, CORRECT, s, 7);
        assertThat(line).as(readable.id()).isPresent();
        assertThat(line.get()).startsWith("the packed engine disagrees with the readable model on logic " + readable.id()
                + "'s " + decision + " in scenario " + s.name() + ", at state t=").contains("rows=[").doesNotContain("\n");
    }
}
