package dev.relaycheck.lincheck;

import dev.relaycheck.model.Held;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.catalogue.LogicCatalogue;
import dev.relaycheck.model.store.ConcurrentRelayStore;
import dev.relaycheck.model.store.RelayStore.Delivery;
import dev.relaycheck.model.store.RelayStore;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The end-of-round assertions on hand-made rounds, without Lincheck: each one fires on its bug and not on a legal round. */
class ProtocolRoundTest {
    private static final String E = "EVENT-61";

    /** p1 claims at 0, the clock ticks, p2 re-claims the expired row at 1 and acks; p1's late ack is stale. */
    @Test
    void aLegalReclaimAfterExpiryPasses() {
        RelayStore store = store();
        List<Held> first = store.claim("p1", 1);
        store.tick();
        List<Held> second = store.claim("p2", 1);
        Delivery d2 = store.consume(E, second.get(0).token());
        Delivery d1 = store.consume(E, first.get(0).token());
        boolean ack2 = store.ack(E, second.get(0).token());
        boolean ack1 = store.ack(E, first.get(0).token());
        List<ProtocolRound.Turn> turns = List.of(
                new ProtocolRound.Turn("p1", first.get(0), 0, 0, d1, ack1),
                new ProtocolRound.Turn("p2", second.get(0), 1, 1, d2, ack2));
        assertThatCode(() -> ProtocolRound.check(ProtocolRound.world(), store.state(), turns)).doesNotThrowAnyException();
    }

    @Test
    void twoWinnersAtOneInstantBreakSingleLiveLease() {
        RelayState end = deliveredOnce();
        List<ProtocolRound.Turn> turns = List.of(
                new ProtocolRound.Turn("p1", new Held(E, 1), 0, 0, Delivery.APPLIED, false),
                new ProtocolRound.Turn("p2", new Held(E, 2), 0, 0, Delivery.DUPLICATE, true));
        assertThat(violation(end, turns)).isEqualTo(Invariant.SINGLE_LIVE_LEASE);
        List<ProtocolRound.Turn> clockMoved = List.of(
                new ProtocolRound.Turn("p1", new Held(E, 1), 0, 1, Delivery.APPLIED, false),
                new ProtocolRound.Turn("p2", new Held(E, 2), 0, 0, Delivery.DUPLICATE, true));
        assertThatCode(() -> ProtocolRound.check(ProtocolRound.world(), end, clockMoved)).as("instant unknown: no claim").doesNotThrowAnyException();
    }

    @Test
    void aStaleAckAcceptedOrATokenIssuedTwiceBreaksStaleAckRejected() {
        RelayState end = deliveredOnce();
        assertThat(violation(end, List.of(
                new ProtocolRound.Turn("p1", new Held(E, 1), 0, 0, Delivery.APPLIED, true),
                new ProtocolRound.Turn("p2", new Held(E, 2), 1, 1, Delivery.DUPLICATE, false))))
                .isEqualTo(Invariant.STALE_ACK_REJECTED);
        assertThat(violation(end, List.of(
                new ProtocolRound.Turn("p1", new Held(E, 1), 0, 0, Delivery.APPLIED, true),
                new ProtocolRound.Turn("p2", new Held(E, 1), 1, 1, Delivery.DUPLICATE, false))))
                .isEqualTo(Invariant.STALE_ACK_REJECTED);
    }

    @Test
    void aDoubleEffectOrAnUndeliveredEventIsCaughtOnTheFinalState() {
        ConcurrentRelayStore twice = new ConcurrentRelayStore(LogicCatalogue.byId("no-dedup-marker").orElseThrow(),
                ProtocolRound.world().events(), ProtocolRound.world().initialStock(), 1);
        twice.consume(E, 1);
        twice.consume(E, 2);
        assertThat(violation(twice.state(), List.of())).isEqualTo(Invariant.EFFECT_AT_MOST_ONCE);
        assertThat(violation(store().state(), List.of())).isEqualTo(Invariant.EVENTUAL_DELIVERY);
    }

    private static RelayStore store() {
        return LincheckTargets.byId("correct").orElseThrow()
                .newStore(ProtocolRound.world().events(), ProtocolRound.world().initialStock(), ProtocolRound.world().leaseTicks());
    }

    private static RelayState deliveredOnce() {
        RelayStore s = store();
        Held h = s.claim("p1", 1).get(0);
        s.consume(E, h.token());
        s.ack(E, h.token());
        return s.state();
    }

    private static Invariant violation(RelayState end, List<ProtocolRound.Turn> turns) {
        ProtocolViolation v = catchThrowableOfType(ProtocolViolation.class, () -> ProtocolRound.check(ProtocolRound.world(), end, turns));
        assertThat(v).as("a violation").isNotNull();
        assertThat(v.getMessage()).startsWith(v.invariant().name() + ": ");
        return v.invariant();
    }
}
