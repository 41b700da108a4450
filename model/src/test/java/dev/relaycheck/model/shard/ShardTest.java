package dev.relaycheck.model.shard;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShardTest {
    @Test
    void everyScheduleBelongsToExactlyOneShardWhichWalksItInOrder() {
        for (int n = 1; n <= 5; n++) {
            List<Long> walked = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                Shard s = Shard.parse(i + "/" + n);
                for (long k = 0; s.nth(k) < 40; k++) {
                    assertThat(s.owns(s.nth(k))).isTrue();
                    walked.add(s.nth(k));
                }
            }
            for (long schedule = 0; schedule < 40; schedule++) {
                long at = schedule;
                assertThat(walked.stream().filter(x -> x == at)).as("schedule " + schedule + " of " + n + " shards").hasSize(1);
            }
        }
        assertThat(Shard.WHOLE.owns(12345)).isTrue();
    }

    @Test
    void anythingButIOfNIsOneLine() {
        assertThatThrownBy(() -> Shard.parse("0/3")).hasMessage("--shard 0/3: a shard is I/N with 1 <= I <= N, got 0/3");
        assertThatThrownBy(() -> Shard.parse("2")).hasMessage("--shard takes I/N (shard I of N, counted from 1, e.g. 2/4), got '2'");
        assertThatThrownBy(() -> Shard.parse("a/b")).hasMessageStartingWith("--shard takes I/N");
    }
}
