package dev.relaycheck.checker;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CrewTest {

    @Test
    void everyMemberRunsEveryPhaseAndTheCallerSeesTheirWrites() {
        for (int size : new int[] {1, 2, 3, 5}) { // 5 is more than this machine's cores: members park, not spin
            try (Crew crew = new Crew(size, "test")) {
                long[] sums = new long[size];
                for (int phase = 1; phase <= 500; phase++) {
                    int p = phase;
                    crew.run(m -> sums[m] += p * (m + 1L));
                }
                for (int m = 0; m < size; m++) {
                    assertThat(sums[m]).isEqualTo(500L * 501 / 2 * (m + 1));
                }
            }
        }
    }

    @Test
    void aMembersExceptionIsRethrownOnceAllAreDoneAndTheCrewGoesOn() {
        try (Crew crew = new Crew(3, "test")) {
            AtomicInteger done = new AtomicInteger();
            assertThatThrownBy(() -> crew.run(m -> {
                if (m == 2) {
                    throw new IllegalArgumentException("member 2 failed");
                }
                done.incrementAndGet();
            })).isInstanceOf(IllegalArgumentException.class).hasMessage("member 2 failed");
            assertThat(done.get()).isEqualTo(2);
            crew.run(m -> done.incrementAndGet());
            assertThat(done.get()).isEqualTo(5);
        }
    }

    @Test
    void closingEndsTheMembers() throws InterruptedException {
        Crew crew = new Crew(3, "crew-closing-test");
        crew.run(m -> { });
        crew.close();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("crew-closing-test")) {
                t.join(10_000);
                assertThat(t.isAlive()).isFalse();
            }
        }
    }
}
