package dev.relaycheck.checker.report;

import dev.relaycheck.checker.trace.Counterexample;
import dev.relaycheck.jdbc.result.SqlFinding;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.StepResult;
import dev.relaycheck.model.catalogue.LogicCatalogue;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The swimlane tells the story on its own: full labels, the rows' leases and tokens, the culprit and what it contradicts. */
class SwimlaneTest {
    private static List<Counterexample> cxs;

    @BeforeAll
    static void counterexamples() {
        cxs = ReportTest.report().counterexamples();
    }

    private static Counterexample of(String logic) {
        return cxs.stream().filter(c -> c.logic().id().equals(logic)).findFirst().orElseThrow();
    }

    /** The tbody row of step n. */
    private static String step(String html, int n) {
        int at = html.indexOf("<td class=\"n\">" + n + "</td>");
        assertThat(at).as("step %d drawn", n).isPositive();
        return html.substring(html.lastIndexOf("<tr", at), html.indexOf("</tr>", at));
    }

    @Test
    void aStaleAckIsMarkedWithTheReclaimItContradictsAndTheTokensOnTheRowLane() {
        Counterexample cx = of("ack-ignores-token");
        String html = Swimlane.html(cx);
        int last = cx.trace().size();
        String culprit = step(html, last);
        assertThat(culprit).startsWith("<tr class=\"culprit\">")
                .contains("Ack(<wbr>p1,<wbr>EVENT-61,<wbr>t1)") // the full label, with places to wrap
                .contains("&lt;== STALE_<wbr>ACK_<wbr>REJECTED").contains("DELIVERED");
        // the step before it is p2's re-claim with t2: the lease the ack should have been checked against
        String cause = step(html, last - 1);
        assertThat(cause).startsWith("<tr class=\"cause\">").contains("Claim(<wbr>p2)").contains("PENDING p2 t2 exp")
                .contains("contradicted by the culprit");
        assertThat(html).contains("<th class=\"row-lane\" title=\"outbox row EVENT-61\">row EVENT-61</th>")
                .contains("PENDING p1 t1 exp").contains("(expired)").doesNotContain("…");
        assertThat(html.split("class=\"cause\"")).hasSize(2);
        assertThat(html.split("class=\"culprit\"")).hasSize(2);
    }

    @Test
    void aDuplicateEffectIsRedOnTheConsumerLaneAndPointsAtTheFirstEffect() {
        Counterexample cx = of("no-dedup-marker");
        String html = Swimlane.html(cx);
        String culprit = step(html, cx.trace().size());
        assertThat(culprit).contains("box consumer twice").contains("<span class=\"bad\">effect EVENT-61 ×2</span>");
        assertThat(html).contains("<tr class=\"cause\">");
        String cause = html.substring(html.indexOf("<tr class=\"cause\">"));
        assertThat(cause.substring(0, cause.indexOf("</tr>"))).contains("APPLIED").contains("effect EVENT-61 ×1");
    }

    /**
     * A SQL finding: steps nobody could read (a killed child's) hatched "not read", the kill with every drawn row's
     * text as the tables were left, the recovery's states, and an end state whose consumer cell keeps to the drawn rows.
     */
    @Test
    void aSqlFindingDrawsUnreadStepsTheKillAndOnlyTheDrawnRowsAtTheEnd() {
        RelayModel model = new RelayModel(LogicCatalogue.correct(), ReferenceScenarios.event61LostAck());
        RelayState s0 = model.initial();
        Step claim = model.enabled(s0).stream().filter(x -> x instanceof Step.Claim).findFirst().orElseThrow();
        StepResult claimed = model.applyEnabled(s0, claim);
        Step deliver = model.enabled(claimed.state()).stream().filter(x -> x instanceof Step.Deliver).findFirst().orElseThrow();
        StepResult delivered = model.applyEnabled(claimed.state(), deliver);
        String id = ((Step.Deliver) deliver).eventId();
        SqlFinding f = new SqlFinding("sql-crash-kill", "my-relay", "h2", "EFFECT_AT_MOST_ONCE", id + " applied 2 times",
                List.of("p1", "p2"), List.of(id), List.of(
                new SqlFinding.Observed(claim, claimed.outcome().toString(), claimed.outcome().kind(), null, null, "child"),
                new SqlFinding.Observed(new Step.Crash("p1"), "killed by SIGKILL", "CRASHED", null, claimed.state(), "kill"),
                new SqlFinding.Observed(deliver, delivered.outcome().toString(), delivered.outcome().kind(), claimed.state(),
                        delivered.state(), "recovery"),
                new SqlFinding.Observed(new Step.Tick(), "the race is over", "END", null, delivered.state(), "end")),
                2, "how it was observed", "./relaycheck sql replay ...");
        String html = Swimlane.html(f);
        assertThat(step(html, 1)).contains("rowbar unread").contains("Claim(");
        assertThat(step(html, 2)).contains("SIGKILL p1").contains("PENDING p1 t1"); // the row as the kill left it
        assertThat(step(html, 3)).startsWith("<tr class=\"culprit\">").contains("&lt;== EFFECT_<wbr>AT_<wbr>MOST_<wbr>ONCE")
                .contains("effect " + id + " ×1");
        assertThat(step(html, 4)).contains("the race is over").contains("effect " + id + " ×1").doesNotContain("→");
        assertThat(html).contains("<span class=\"key unread\">not read</span>").contains("bars coloured by owner (p1, p2)");
        assertThat(f.trace()).contains("  3 recovery  " + deliver + " -> " + delivered.outcome() + "   <== EFFECT_AT_MOST_ONCE");
    }

    @Test
    void everyStepOfEveryCounterexampleIsDrawnWithItsFullLabel() {
        for (Counterexample cx : cxs) {
            String html = Swimlane.html(cx);
            cx.trace().stream().filter(t -> !t.healing()).forEach(t ->
                    assertThat(html).as("%s step %d", cx.logic().id(), t.number()).contains(Swimlane.wrappable(t.step().toString())));
        }
    }
}
