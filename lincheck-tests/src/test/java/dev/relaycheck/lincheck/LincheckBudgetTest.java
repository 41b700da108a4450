package dev.relaycheck.lincheck;

import org.junit.jupiter.api.Test;

import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LincheckBudgetTest {

    @Test
    void blankOrMissingPropertiesGiveTheDefaults() {
        Properties p = new Properties();
        p.setProperty("lincheck.iterations", "");
        p.setProperty("lincheck.hazards", " ");
        assertThat(LincheckBudget.from(p)).isEqualTo(LincheckBudget.DEFAULT);
        assertThat(LincheckBudget.DEFAULT.overrides()).isEmpty();
    }

    @Test
    void propertiesOverrideAndAreEchoedForTheRerunCommand() {
        Properties p = new Properties();
        p.setProperty("lincheck.iterations", "200");
        p.setProperty("lincheck.protocol.invocations", "5000");
        p.setProperty("lincheck.hazards", "false");
        LincheckBudget b = LincheckBudget.from(p);
        assertThat(b.iterations()).isEqualTo(200);
        assertThat(b.invocations()).isEqualTo(LincheckBudget.DEFAULT.invocations());
        assertThat(b.overrides()).containsExactly("-Dlincheck.iterations=200", "-Dlincheck.protocol.invocations=5000",
                "-Dlincheck.hazards=false");
        assertThat(ResultFiles.rerunCommand("relay-protocol", "correct", b)).isEqualTo(
                "mvn -q -pl lincheck-tests compile exec:exec -Dlincheck.only=relay-protocol/correct"
                        + " -Dlincheck.iterations=200 -Dlincheck.protocol.invocations=5000 -Dlincheck.hazards=false");
    }

    @Test
    void badValuesAreRejectedWithOneClearLine() {
        Properties p = new Properties();
        p.setProperty("lincheck.invocations", "lots");
        assertThatThrownBy(() -> LincheckBudget.from(p)).hasMessage("lincheck.invocations must be an integer, got 'lots'");
        p.setProperty("lincheck.invocations", "0");
        assertThatThrownBy(() -> LincheckBudget.from(p)).hasMessage("lincheck.invocations must be at least 1, got 0");
        p.setProperty("lincheck.invocations", "");
        p.setProperty("lincheck.hazards", "yes");
        assertThatThrownBy(() -> LincheckBudget.from(p)).hasMessage("lincheck.hazards must be true or false, got 'yes'");
    }
}
