package dev.relaycheck.junit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JUnitVersionTest {
    @Test
    void versionsBeforeTheOldestSupportedAreTooOld() {
        assertThat(JUnitVersion.tooOld("5.10.3")).isTrue();
        assertThat(JUnitVersion.tooOld("5.9.0-M1")).isTrue();
        assertThat(JUnitVersion.tooOld("5.11.0")).isFalse();
        assertThat(JUnitVersion.tooOld("5.14.4")).isFalse();
        assertThat(JUnitVersion.tooOld("6.1.3")).isFalse();
        assertThat(JUnitVersion.tooOld("weird")).isFalse();
    }

    @Test
    void theMessageIsOneLineNamingBothVersions() {
        assertThat(JUnitVersion.message("5.10.3")).doesNotContain("\n").contains("needs JUnit Jupiter 5.11 or newer")
                .contains("runs JUnit Jupiter 5.10.3");
    }

    @Test
    void thisBuildRunsASupportedJUnit() {
        assertThat(JUnitVersion.running()).isNotNull();
        JUnitVersion.require();
    }
}
