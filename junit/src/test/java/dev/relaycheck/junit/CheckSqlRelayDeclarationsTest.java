package dev.relaycheck.junit;

import dev.relaycheck.model.Invariant;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * {@link CheckSqlRelay} takes a relay's declarations as the CLI does: an adapter's optional methods, a relay file's
 * {@code -- option:} lines. A relay fenced by owner (no token column) is checked on the tokens relaycheck issues for
 * it; a relay file declares what it does not promise.
 */
class CheckSqlRelayDeclarationsTest {

    @CheckSqlRelay(adapter = com.acme.LockedByRelayAdapter.class, properties = Property.STALE_ACKS_REJECTED)
    void aRelayFencedByOwnerRejectsStaleAcks() {
    }

    @CheckSqlRelay(adapter = com.acme.LockedByRelayAdapter.NodeId.class, properties = Property.STALE_ACKS_REJECTED,
            expectViolation = Invariant.STALE_ACK_REJECTED)
    void itsCopyWithOneOwnerIdPerNodeIsCaught() {
    }

    @CheckSqlRelay(sql = "src/test/resources/relays/locked-by.sql", properties = Property.STALE_ACKS_REJECTED)
    void theSameRelayAsARelayFileRejectsStaleAcks() {
    }

    @CheckSqlRelay(sql = "src/test/resources/relays/unordered-declared.sql", properties = Property.EACH_EFFECT_ONCE)
    void aRelayFileThatDoesNotPromiseOrderIsJudgedOnWhatItPromises() {
    }

    /** A check of one property judges that property: the relay's missing order is another's. */
    @CheckSqlRelay(sql = "src/test/resources/relays/unordered.sql", properties = Property.EACH_EFFECT_ONCE)
    void withoutTheDeclarationItStillDeliversEachEffectOnce() {
    }

    /** Run by the engine below only. */
    static class Failing {
        @CheckSqlRelay(sql = "src/test/resources/relays/unordered.sql", properties = Property.AGGREGATE_ORDER)
        void theSameRelayFileWithoutTheDeclaration() {
        }

        @CheckSqlRelay(sql = "src/test/resources/relays/unordered-declared.sql", properties = Property.AGGREGATE_ORDER)
        void theRelayFileThatDeclaresItDoesNotPromiseOrder() {
        }
    }

    @Test
    void withoutTheDeclarationTheMissingOrderIsAViolationAndWithItTheOrderPropertyIsNotClaimed() {
        List<Event> failed = EngineTestKit.engine("junit-jupiter").selectors(selectClass(Failing.class)).execute()
                .testEvents().failed().list();
        assertThat(failed).hasSize(2);
        List<String> messages = failed.stream().map(e -> e.getPayload(org.junit.platform.engine.TestExecutionResult.class)
                .orElseThrow().getThrowable().orElseThrow().getMessage()).sorted().toList();
        assertThat(messages.get(0)).contains("relaycheck: relay unordered-declared.sql declares it does not promise [AGGREGATE_ORDER]")
                .doesNotContain("VIOLATION");
        assertThat(messages.get(1)).contains("relaycheck: relay unordered.sql breaks the property").contains("VIOLATION AGGREGATE_ORDER")
                .contains("./relaycheck sql replay --sql ");
    }
}
