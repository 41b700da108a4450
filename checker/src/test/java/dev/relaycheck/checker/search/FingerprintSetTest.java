package dev.relaycheck.checker.search;

import dev.relaycheck.checker.space.FingerprintSet;
import dev.relaycheck.model.SplitMix64;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The visited set takes mixed fingerprints (SplitMix64 finalisers): its home slot is their low bits. */
class FingerprintSetTest {

    @Test
    void holdsEveryFingerprintAddedAndNoOtherAcrossItsGrowths() {
        FingerprintSet set = new FingerprintSet();
        int n = 600_000; // ten doublings from its first 1024 slots
        int added = 0;
        int found = 0;
        int addedAgain = 0;
        int strangers = 0;
        for (int i = 1; i <= n; i++) {
            added += set.add(SplitMix64.mix(i)) ? 1 : 0;
        }
        for (int i = 1; i <= n; i++) {
            found += set.contains(SplitMix64.mix(i)) ? 1 : 0;
            addedAgain += set.add(SplitMix64.mix(i)) ? 1 : 0;
            strangers += set.contains(SplitMix64.mix(n + i)) ? 1 : 0;
        }
        assertThat(new int[] {added, found, addedAgain, strangers, set.size()}).containsExactly(n, n, 0, 0, n);
        assertThat(set.bytes()).isBetween(n * 8L * 10 / 7, n * 8L * 3); // at most 70% full, at least a third
    }

    @Test
    void addAllListsOnlyTheFirstOfRepeatsInOrder() {
        FingerprintSet set = new FingerprintSet();
        set.add(0); // stored as 1, since 0 marks a free slot: to a caller it is a fingerprint like any other
        assertThat(set.contains(0)).isTrue();
        assertThat(set.add(0)).isFalse();
        long[] fps = new long[600];
        int[] at = new int[300]; // the even successors, as a shard's list names its own among all of them
        for (int j = 0; j < 300; j++) {
            at[j] = 2 * j;
            fps[2 * j] = SplitMix64.mix(j % 100 + 1); // each of 100 fingerprints three times
        }
        int[] fresh = new int[300];
        assertThat(set.addAll(fps, at, 300, fresh)).isEqualTo(100);
        assertThat(Arrays.copyOf(fresh, 100)).isEqualTo(IntStream.range(0, 100).map(j -> 2 * j).toArray());
        assertThat(set.addAll(fps, at, 300, fresh)).isZero();
    }
}
