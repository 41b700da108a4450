package dev.relaycheck.lincheck;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChecksSelectionTest {

    @Test
    void everyCheckHasTheCorrectStoreAndBrokenTargets() {
        for (LincheckCheck c : Checks.all()) {
            assertThat(c.targets().get(0).id()).as(c.id()).isEqualTo("correct");
            assertThat(c.targets()).as(c.id()).filteredOn(t -> !t.isCorrect()).isNotEmpty();
        }
        assertThat(Checks.byId("linearizability-model-checking").orElseThrow().targets()).hasSize(LincheckTargets.all().size());
        assertThat(Checks.byId("relay-protocol").orElseThrow().targets()).extracting(Target::id).containsExactly(
                "correct", "check-then-act-claim-store", "check-then-insert-dedup-store", "read-then-write-ack-store");
    }

    @Test
    void selectionNamesChecksOrSingleTargets() {
        int all = Checks.all().stream().mapToInt(c -> c.targets().size()).sum();
        assertThat(Checks.select("")).hasSize(all);
        assertThat(Checks.select("relay-protocol")).hasSize(4);
        List<Checks.Planned> one = Checks.select("linearizability-stress/no-dedup-marker, relay-protocol/correct");
        assertThat(one).extracting(Checks.Planned::name)
                .containsExactly("linearizability-stress/no-dedup-marker", "relay-protocol/correct");
        assertThatThrownBy(() -> Checks.select("linearizability")).hasMessageStartingWith("unknown check 'linearizability'");
        assertThatThrownBy(() -> Checks.select("linearizability-stress/marker-before-effect"))
                .hasMessageStartingWith("check linearizability-stress has no target 'marker-before-effect'");
    }

    @Test
    void mainRejectsBadInputWithOneLineAndExitTwo() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LincheckChecks.run(new String[] {"--only", "nope"}, print(out), print(err));
        assertThat(code).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).hasLineCount(1).startsWith("lincheck-checks: unknown check 'nope'");
        assertThat(LincheckChecks.run(new String[] {"--frobnicate"}, print(out), print(err))).isEqualTo(2);
        assertThat(LincheckChecks.run(new String[] {"--only"}, print(out), print(err))).isEqualTo(2);
    }

    @Test
    void mainListsThePlanWithoutRunningIt() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = LincheckChecks.run(new String[] {"--list", "--only", "relay-protocol"}, print(out), print(new ByteArrayOutputStream()));
        assertThat(code).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("relay-protocol/correct\tPASS\n"
                + "relay-protocol/check-then-act-claim-store\tCATCH\n"
                + "relay-protocol/check-then-insert-dedup-store\tCATCH\n"
                + "relay-protocol/read-then-write-ack-store\tCATCH\n");
    }

    private static PrintStream print(ByteArrayOutputStream b) {
        return new PrintStream(b, true, StandardCharsets.UTF_8);
    }
}
