package dev.relaycheck.jdbc.race;

import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Violation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The race's lease judgement after the fact. Found under .ci/saturated with gruelbox on PostgreSQL: a failed
 * processNow makes gruelbox itself record the attempt (version + 1, a retry time), a token no claim issued; the next
 * claim's token then follows that one, not the lease the race saw granted.
 */
class LeaseHistoryTest {

    @Test
    void aGrantOverALiveLeaseIsSingleLiveLease() {
        LeaseHistory h = new LeaseHistory();
        h.grant(new LeaseHistory.Granted("E41", "p2", 2, 56, 58));
        h.grant(new LeaseHistory.Granted("E41", "p4", 4, 57, 59));
        assertThat(h.check()).extracting(Violation::invariant).containsExactly(Invariant.SINGLE_LIVE_LEASE);
    }

    @Test
    void aTokenNoClaimIssuedBetweenTwoGrantsLeavesThemUnjudged() {
        LeaseHistory h = new LeaseHistory();
        h.grant(new LeaseHistory.Granted("E41", "p2", 2, 56, 58));
        h.seen("E41", 3); // p2's delivery was refused: "row holds t3", which no claim of the race issued
        h.grant(new LeaseHistory.Granted("E41", "p4", 4, 57, 59));
        assertThat(h.check()).isEmpty();
    }

    @Test
    void aTokenSeenThatAClaimIssuedExcusesNothing() {
        LeaseHistory h = new LeaseHistory();
        h.grant(new LeaseHistory.Granted("E41", "p2", 2, 56, 58));
        h.grant(new LeaseHistory.Granted("E41", "p3", 3, 56, 58)); // over p2's live lease
        h.seen("E41", 3);
        h.grant(new LeaseHistory.Granted("E41", "p4", 4, 58, 60));
        assertThat(h.check()).extracting(Violation::detail).containsExactly(
                "E41: p3 took t3 at 56 while p2's t2 was live until 58");
    }
}
