package dev.relaycheck.model;

import dev.relaycheck.model.catalogue.LogicCatalogue;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The contract check around a user's logic, and the context the model gives each decision: the acting poller
 * to claims, tokens, acks and releases, the clock to acks and releases.
 */
class CheckedLogicTest {

    private static final Event E1 = new Event("E1", "SKU-1", 1, 3, "take 3 of SKU-1");
    private static final OutboxRow LEASED = OutboxRow.pending(E1).withLease(new Lease("p1", 1, 2));

    /** Answers the ack question from a script of answers, one per asking, like a counter would. */
    private static final class Scripted extends CorrectRelayLogic {
        private final boolean[] answers;
        private int asked;

        Scripted(boolean... answers) {
            this.answers = answers;
        }

        @Override
        public String id() {
            return "scripted";
        }

        @Override
        public boolean acceptsAck(OutboxRow row, long token) {
            return answers[Math.min(asked++, answers.length - 1)];
        }
    }

    /** Answers every ack question right for its first {@code n} calls, then wrong: a static counter's way. */
    private static final class FlipsAfter extends CorrectRelayLogic {
        private final int n;
        private int calls;

        FlipsAfter(int n) {
            this.n = n;
        }

        @Override
        public String id() {
            return "flips-after";
        }

        @Override
        public boolean acceptsAck(OutboxRow row, long token) {
            boolean right = super.acceptsAck(row, token);
            return ++calls <= n ? right : !right;
        }
    }

    /** Asks the ack question at each clock in {@code nows} once (each a new question: no memory hit). */
    private static void askEach(CheckedLogic checked, int... nows) {
        for (int now : nows) {
            checked.acceptsAck(LEASED, 1, "p1", now);
        }
    }

    @Test
    void recheckFindsAChangedAnswerNoQuestionWasAskedAgainForAndNamesTheLeastSameInAnyOrder() {
        // three questions answered right (two calls each), then the logic flips: nothing asked again notices
        CheckedLogic ascending = (CheckedLogic) CheckedLogic.of(new FlipsAfter(6));
        askEach(ascending, 0, 1, 2);
        assertThat(ascending.acceptsAck(LEASED, 1, "p1", 3)).isFalse(); // a new question, flipped twice alike
        CheckedLogic descending = (CheckedLogic) CheckedLogic.of(new FlipsAfter(6));
        askEach(descending, 2, 1, 0);
        descending.acceptsAck(LEASED, 1, "p1", 3);
        String least = "NON-DETERMINISM in logic flips-after: acceptsAck(E1:PENDING[p1/t1/exp2], t1, p1, now=0) "
                + "answered true, then false";
        assertThat(ascending.recheck()).map(LogicFailure::line).contains(least);
        assertThat(descending.recheck()).map(LogicFailure::line).contains(least);
    }

    @Test
    void recheckOfALogicThatKeepsItsContractFindsNothing() {
        CheckedLogic checked = (CheckedLogic) CheckedLogic.of(new CorrectRelayLogic() {
            @Override
            public String id() {
                return "pure";
            }
        });
        askEach(checked, 0, 1, 2, 3);
        assertThat(checked.recheck()).isEmpty();
        assertThat(checked.recheck()).isEmpty();
    }

    @Test
    void aSecondDifferentAnswerToTheSameQuestionIsNonDeterminismNamingMethodAndArguments() {
        RelayLogic checked = CheckedLogic.of(new Scripted(true, true, true, false));
        assertThat(checked.acceptsAck(LEASED, 1, "p1", 0)).isTrue(); // asked twice: true, true
        assertThat(checked.acceptsAck(LEASED, 1, "p1", 0)).isTrue(); // the third asking agrees
        assertThatThrownBy(() -> checked.acceptsAck(LEASED, 1, "p1", 0))
                .isInstanceOf(NonDeterminism.class)
                .satisfies(e -> assertThat(((LogicFailure) e).line()).isEqualTo("NON-DETERMINISM in logic scripted: "
                        + "acceptsAck(E1:PENDING[p1/t1/exp2], t1, p1, now=0) answered true, then false"))
                .satisfies(e -> assertThat(((LogicFailure) e).method()).isEqualTo("acceptsAck"));
    }

    @Test
    void aFirstAnswerIsAskedTwiceSoADrawnAnswerIsCaughtWhereItIsFirstDrawn() {
        RelayLogic checked = CheckedLogic.of(new Scripted(false, true));
        assertThatThrownBy(() -> checked.acceptsAck(LEASED, 1, "p2", 3))
                .isInstanceOf(NonDeterminism.class)
                .hasMessage("acceptsAck(E1:PENDING[p1/t1/exp2], t1, p2, now=3) answered false, then true");
    }

    @Test
    void otherArgumentsAreAnotherQuestion() {
        RelayLogic checked = CheckedLogic.of(new Scripted(true, true, false));
        assertThat(checked.acceptsAck(LEASED, 1, "p1", 0)).isTrue();
        assertThat(checked.acceptsAck(LEASED, 1, "p1", 1)).isFalse(); // another clock: a fresh question
    }

    @Test
    void anExceptionIsALogicErrorWithTheQuestionAndWhereTheLogicThrewIt() {
        RelayLogic checked = CheckedLogic.of(new CorrectRelayLogic() {
            @Override
            public long issueToken(OutboxRow row, long lastIssued) {
                throw new IllegalStateException("token table locked");
            }
        });
        assertThatThrownBy(() -> checked.issueToken(LEASED, 4, "p2"))
                .isInstanceOf(LogicError.class)
                .hasMessageStartingWith("issueToken(E1:PENDING[p1/t1/exp2], lastIssued=4, p2) threw "
                        + "java.lang.IllegalStateException: token table locked (at dev.relaycheck.model.CheckedLogicTest")
                .satisfies(e -> assertThat(((LogicFailure) e).verdict()).isEqualTo("LOGIC-ERROR"));
    }

    @Test
    void anErrorAUsersCodeRaisesIsALogicErrorToo() {
        RelayLogic checked = CheckedLogic.of(new CorrectRelayLogic() {
            @Override
            public int leaseExpiry(int now, int leaseTicks) {
                throw new AssertionError("expiry overflow");
            }
        });
        assertThatThrownBy(() -> checked.leaseExpiry(3, 2)).isInstanceOf(LogicError.class)
                .hasMessageStartingWith("leaseExpiry(now=3, leaseTicks=2) threw java.lang.AssertionError: expiry overflow");
    }

    @Test
    void aNullAnswerIsALogicError() {
        RelayLogic checked = CheckedLogic.of(new CorrectRelayLogic() {
            @Override
            public String dedupKey(Event event, long deliveryToken) {
                return null;
            }
        });
        assertThatThrownBy(() -> checked.dedupKey(E1, 1)).isInstanceOf(LogicError.class)
                .hasMessage("dedupKey(E1, t1) answered null");
    }

    @Test
    void aLogicImplementingNeitherFormOfADecisionIsALogicErrorThatSaysSo() {
        RelayLogic neither = new RelayLogic() {
            public String id() { return "neither"; }
            public String description() { return "implements no ack"; }
            public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now) { return true; }
            public long issueToken(OutboxRow row, long lastIssued) { return lastIssued + 1; }
            public int leaseExpiry(int now, int leaseTicks) { return now + leaseTicks; }
            public boolean acceptsRelease(OutboxRow row, long token) { return true; }
            public String dedupKey(Event event, long deliveryToken) { return event.id(); }
        };
        assertThatThrownBy(() -> CheckedLogic.of(neither).acceptsAck(LEASED, 1, "p1", 0))
                .isInstanceOf(LogicError.class)
                .hasMessageContaining("implements neither acceptsAck(row, token) nor acceptsAck(row, token, poller, now)");
    }

    @Test
    void eventsWithOneIdButDifferentPayloadsAreDifferentQuestions() {
        // two scenarios may both have an E1: a logic keyed by payload must not look non-deterministic
        RelayLogic checked = CheckedLogic.of(new CorrectRelayLogic() {
            @Override
            public String dedupKey(Event event, long deliveryToken) {
                return event.payload();
            }
        });
        Event other = new Event("E1", "SKU-2", 1, 5, "take 5 of SKU-2");
        assertThat(checked.dedupKey(E1, 1)).isEqualTo("take 3 of SKU-1");
        assertThat(checked.dedupKey(other, 1)).isEqualTo("take 5 of SKU-2");
    }

    @Test
    void theShippedLogicsAreKnownPureAndRunUnchecked() {
        for (RelayLogic shipped : LogicCatalogue.all()) {
            assertThat(CheckedLogic.of(shipped)).isSameAs(shipped);
        }
        RelayLogic users = new CorrectRelayLogic() { };
        RelayLogic checked = CheckedLogic.of(users);
        assertThat(checked).isNotSameAs(users);
        assertThat(CheckedLogic.of(checked)).isSameAs(checked);
        assertThat(CheckedLogic.unwrap(checked)).isSameAs(users);
    }

    /** A logic written against the context overloads alone, as a user who needs them would write it. */
    private static final class OwnerFenced implements RelayLogic {
        final StringBuilder asked = new StringBuilder();

        public String id() { return "owner-fenced"; }
        public String description() { return "only the owner may ack or release"; }

        public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now, String poller) {
            asked.append("isClaimable by ").append(poller).append(" at ").append(now).append("; ");
            return row.isPending() && row.unleasedAt(now);
        }

        public long issueToken(OutboxRow row, long lastIssued, String poller) {
            asked.append("issueToken for ").append(poller).append("; ");
            return lastIssued + 1;
        }

        public int leaseExpiry(int now, int leaseTicks) { return now + leaseTicks; }

        public boolean acceptsAck(OutboxRow row, long token, String poller, int now) {
            asked.append("acceptsAck by ").append(poller).append(" at ").append(now).append("; ");
            return row.isPending() && row.hasLease() && row.lease().token() == token && row.lease().owner().equals(poller);
        }

        public boolean acceptsRelease(OutboxRow row, long token, String poller, int now) {
            return acceptsAck(row, token, poller, now);
        }

        public String dedupKey(Event event, long deliveryToken) { return event.id(); }
    }

    @Test
    void everyDecisionARealRelayMakesWithContextGetsTheActingPollerAndTheClock() {
        OwnerFenced logic = new OwnerFenced();
        RelayModel model = new RelayModel(logic, ReferenceScenarios.staleAckAfterExpiry());
        ScheduleRunner.Run run = ScheduleRunner.run(model, Schedules.of(
                "Claim(p1)", "Deliver(p1,E1,t1)", "Tick", "Tick", "Claim(p2)", "Ack(p1,E1,t1)"));
        assertThat(run.clean()).isTrue();
        assertThat(logic.asked.toString()).contains("isClaimable by p1 at 0; issueToken for p1; ")
                .contains("isClaimable by p2 at 2; issueToken for p2; ").endsWith("acceptsAck by p1 at 2; ");
        assertThat(run.finalState().row("E1").orElseThrow().lease().owner()).isEqualTo("p2");
    }
}
