package dev.relaycheck.checker.replay;

import dev.relaycheck.checker.UsageException;
import dev.relaycheck.checker.search.BreadthFirstSearch;
import dev.relaycheck.checker.search.Progress;
import dev.relaycheck.checker.search.Verdict;
import dev.relaycheck.checker.trace.Counterexample;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.ScenarioText;
import dev.relaycheck.model.TickBound;
import dev.relaycheck.model.catalogue.LogicCatalogue;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Replay records carry their scenario in the scenario file form (version 2) and still read version 1. */
class ReplayRecordTest {

    /** Written by relaycheck before version 2 (explore --logic ack-ignores-token -s stale-ack-after-expiry). */
    private static final String VERSION_1_TEXT = """
            relaycheck-replay 1
            logic ack-ignores-token dev.relaycheck.model.variants.AckIgnoresToken
            scenario stale-ack-after-expiry
            pollers p1 p2
            stock SKU-1 10
            event E1 SKU-1 1 3 take 3 of SKU-1
            bounds batch=1 lease=2 ticks=3 crashes=0 lostacks=0 deliverfails=1 producefails=0 produced=false
            witnesses STALE_ACK LEASE_RECLAIMED DELIVERY_RETRIED
            invariant STALE_ACK_REJECTED
            found-by bfs
            seed none
            step Claim(p1) => CLAIMED [E1/t1]
            step Deliver(p1,E1,t1) => APPLIED E1
            step Tick => TICKED now=1
            step Tick => TICKED now=2
            step Claim(p2) => CLAIMED [E1/t2 (re-claimed)]
            step Ack(p1,E1,t1) => ACKED E1/t1
            end
            """;
    /** The token the same version printed for that record. */
    private static final String VERSION_1_TOKEN = "rc1:eNp1UcFO4zAQvfsr5kglUupwDlKU-hAaJNRmkVYrhFxnQq0YO_KYQv9-J4SCdld78sx7b2bejCM6fTIHNEMWceQYpHDh2RrQDNlnHyJSlsKAHjo8LuOXfvkSOnTLo45W-0TL0gz1LG8ntSCDnrkAlLTDbGqn-4Qxw_fRxpMYg3MYCUYJYy4oBTPAbvMjkyBXAo_oEyh5RuAakh6Qn9DPmNiHV98R7HUyh0KCQ01Y5JCsGai4BhM1HZCKFbjADiZwxRs4e8TYa-uIa8YYuleDc7o6p13Ra0co3mzySIQEu7Zs1FNZbaBR5U49bVXVlPWdWsNaNfWD2v5kqN3Wai2s_zzIdxFzt6pqmewny9n-BPueBCF24INH3h1HqJy2LxejXEBxA-f2v5S8SvJxVqxn86y5VPIyzcry_r7huXyqWdTy-hPe1tWGYR_eiv8z-R-j839H53ARMTMTj93i0wd_9F8ePhp-WBXoO_EbY3C_AA";

    @Test
    void aVersionOneRecordAndTokenStillReplay() {
        for (ReplayRecord r : new ReplayRecord[]{ReplayRecord.parse(VERSION_1_TEXT), ReplayRecord.fromToken(VERSION_1_TOKEN)}) {
            assertThat(r.scenario().tickBound()).isEqualTo(TickBound.at(3)); // version 1 bounds were fixed ticks
            assertThat(r.steps()).hasSize(6);
            Replayer.Result result = Replayer.replay(r, LogicCatalogue.byId("ack-ignores-token").orElseThrow());
            assertThat(result.verdict()).as(result.report()).isEqualTo(Verdict.VIOLATION);
            assertThat(result.report()).contains("REPRODUCED STALE_ACK_REJECTED");
        }
    }

    @Test
    void aVersionTwoRecordHoldsTheScenarioInTheFileFormAndReadsBackEqual() {
        Scenario custom = ReferenceScenarios.mixed().toBuilder().name("mine+lease=5").leaseTicks(5).build();
        Counterexample cx = new BreadthFirstSearch(1_000_000, 8, 1, BreadthFirstSearch.Engine.AUTO, Progress.NONE)
                .search(LogicCatalogue.byId("ack-ignores-token").orElseThrow(), custom).counterexample().orElseThrow();
        ReplayRecord record = ReplayRecord.of(cx);
        String text = record.toText();
        assertThat(text).startsWith("relaycheck-replay 2\n").contains(ScenarioText.write(cx.scenario()))
                .contains("ticks lease+2\n");
        for (ReplayRecord back : new ReplayRecord[]{ReplayRecord.parse(text), ReplayRecord.fromToken(record.toToken())}) {
            assertThat(back).isEqualTo(record);
            assertThat(Replayer.replay(back, cx.logic()).verdict()).isEqualTo(Verdict.VIOLATION);
        }
    }

    @Test
    void aBadScenarioLineInARecordIsAUsageErrorNamingTheLine() {
        String text = ReplayRecord.parse(VERSION_1_TEXT).toText(); // the same record, written as version 2
        int batchLine = text.substring(0, text.indexOf("\nbatch 1\n")).split("\n").length + 1;
        assertThatThrownBy(() -> ReplayRecord.parse(text.replace("\nbatch 1\n", "\nbatch 0\n")))
                .isInstanceOf(UsageException.class)
                .hasMessage("malformed replay record: line " + batchLine + ": batch: batch must be at least 1, got 0");
        assertThatThrownBy(() -> ReplayRecord.parse(text.replace("\nbatch 1\n", "\nbounds batch=1\n")))
                .isInstanceOf(UsageException.class).hasMessageContaining("unknown field 'bounds'");
    }
}
