package dev.relaycheck.model;

import dev.relaycheck.model.RelayLogic.TokenPolicy;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Per-row version fencing and delivery-and-ack in one transaction, in the model: the tailored reference logic
 * survives seeded random schedules on every reference scenario and heals; broken copies are caught with
 * STALE_ACK_REJECTED (a stale ack is one with a version that is not the row's current one).
 */
class PerRowVersionAndDeliverAckTest {
    private static final int RUNS = 200;

    /** Every step judged; returns the first violation of any schedule (null: none) and collects witnesses. */
    private static Violation firstViolation(RelayLogic logic, Set<Witness> seen) {
        for (Scenario scenario : ReferenceScenarios.defaults()) {
            RelayModel model = new RelayModel(logic, scenario);
            for (int run = 0; run < RUNS; run++) {
                long seed = SplitMix64.derive(17, run);
                ScheduleRunner.Run r = ScheduleRunner.run(model, RandomSchedules.walk(model, seed, 60));
                seen.addAll(r.witnesses());
                if (!r.clean()) {
                    return r.violations().get(0);
                }
                Healing.Run h = Healing.run(model, r.finalState());
                if (h.violation().isPresent()) {
                    return h.violation().get();
                }
            }
        }
        return null;
    }

    @Test
    void perRowVersionsFenceAndHeal() {
        Set<Witness> seen = EnumSet.noneOf(Witness.class);
        RelayLogic logic = TailoredCorrectLogic.of(TokenPolicy.PER_ROW_VERSION, false, true);
        assertThat(firstViolation(logic, seen)).isNull();
        assertThat(seen).containsAll(EnumSet.allOf(Witness.class));
    }

    @Test
    void aClaimWritesTheRowsVersionPlusOneAndTheGlobalCounterStaysUnused() {
        RelayModel model = new RelayModel(TailoredCorrectLogic.of(TokenPolicy.PER_ROW_VERSION, false, true),
                ReferenceScenarios.doubleClaim());
        RelayState s = model.apply(model.initial(), new Step.Claim("p1")).state();
        assertThat(s.row("E1").orElseThrow().lease().token()).isEqualTo(1);
        assertThat(s.row("E1").orElseThrow().version()).isEqualTo(1);
        s = model.apply(s, new Step.Claim("p2")).state();
        assertThat(s.row("E2").orElseThrow().lease().token()).as("E2's own version, not a global counter").isEqualTo(1);
        assertThat(s.lastToken()).isZero();
    }

    @Test
    void aReleaseIsAFencedWriteTooAndIncrementsTheVersion() {
        RelayModel model = new RelayModel(TailoredCorrectLogic.of(TokenPolicy.PER_ROW_VERSION, false, true),
                ReferenceScenarios.staleAckAfterExpiry());
        RelayState s = model.apply(model.initial(), new Step.Claim("p1")).state();
        s = model.apply(s, new Step.DeliverFails("p1", "E1")).state();
        s = model.apply(s, new Step.Release("p1", "E1", 1)).state();
        assertThat(s.row("E1").orElseThrow().hasLease()).isFalse();
        assertThat(s.row("E1").orElseThrow().version()).isEqualTo(2);
        StepResult again = model.apply(s, new Step.Claim("p2"));
        assertThat(((Outcome.Claimed) again.outcome()).grants().get(0).token()).isEqualTo(3);
    }

    @Test
    void anAckThatIgnoresTheVersionIsCaught() {
        RelayLogic broken = new PerRowBroken() {
            @Override
            public boolean acceptsAck(OutboxRow row, long token) {
                return row.isPending();
            }
        };
        Violation v = firstViolation(broken, EnumSet.noneOf(Witness.class));
        assertThat(v).isNotNull();
        assertThat(v.invariant()).isEqualTo(Invariant.STALE_ACK_REJECTED);
    }

    @Test
    void aReclaimThatKeepsTheVersionIsCaught() {
        RelayLogic broken = new PerRowBroken() {
            @Override
            public long issueToken(OutboxRow row, long lastIssued) {
                return row.hasLease() ? lastIssued : lastIssued + 1;
            }
        };
        Violation v = firstViolation(broken, EnumSet.noneOf(Witness.class));
        assertThat(v).isNotNull();
        assertThat(v.invariant()).isEqualTo(Invariant.STALE_ACK_REJECTED);
        assertThat(v.detail()).contains("not above the row's version");
    }

    @Test
    void deliverAndAckInOneTransactionNeverDuplicatesAndRefusesStaleDeliveries() {
        Set<Witness> seen = EnumSet.noneOf(Witness.class);
        RelayLogic logic = TailoredCorrectLogic.of(TokenPolicy.PER_ROW_VERSION, true, true);
        assertThat(firstViolation(logic, seen)).isNull();
        assertThat(seen).contains(Witness.STALE_ACK, Witness.LEASE_RECLAIMED, Witness.DELIVERY_RETRIED)
                .as("the effect and the ack commit together: a redelivery after the effect cannot happen")
                .doesNotContain(Witness.DUPLICATE_ABSORBED);
    }

    @Test
    void aDeliverAndAckThatIgnoresTheVersionIsCaught() {
        RelayLogic broken = new PerRowBroken() {
            @Override
            public boolean deliversAndAcksTogether() {
                return true;
            }

            @Override
            public boolean acceptsAck(OutboxRow row, long token) {
                return row.isPending();
            }
        };
        Violation v = firstViolation(broken, EnumSet.noneOf(Witness.class));
        assertThat(v).isNotNull();
        assertThat(v.invariant()).isEqualTo(Invariant.STALE_ACK_REJECTED);
        assertThat(v.detail()).contains("deliver-and-ack");
    }

    @Test
    void theDefaultsAreTheReferenceLogic() {
        assertThat(TailoredCorrectLogic.of(TokenPolicy.GLOBAL_COUNTER, false, true)).isExactlyInstanceOf(CorrectRelayLogic.class);
        assertThat(new CorrectRelayLogic().tokenPolicy()).isEqualTo(TokenPolicy.GLOBAL_COUNTER);
        assertThat(new CorrectRelayLogic().deliversAndAcksTogether()).isFalse();
        assertThat(List.of(OutboxRow.pending(new Event("E", "S", 1, 1)).version())).containsExactly(0L);
    }

    /** A per-row-version relay with one mistake (set by each test). */
    private static class PerRowBroken extends CorrectRelayLogic {
        @Override
        public String id() {
            return "per-row-broken";
        }

        @Override
        public TokenPolicy tokenPolicy() {
            return TokenPolicy.PER_ROW_VERSION;
        }
    }
}
