package dev.relaycheck.checker.search;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The default --max-states comes from what a stored state costs at the search's peak and the fixed buffers;
 * the CLI tests run it in small heaps (CliProcessTest: INCOMPLETE, never an OutOfMemoryError).
 */
class DefaultBoundTest {
    private static final long GIB = 1L << 30;

    @Test
    void aBigHeapGoesAsFarAsItHolds() {
        // the 115 M-state search (3 words a state) that completed at -Xmx16g with 6 GB resident; 150 bytes a state stopped it
        assertThat(BreadthFirstSearch.defaultMaxStates(3, 16 * GIB)).isGreaterThanOrEqualTo(115_000_000);
        assertThat(BreadthFirstSearch.defaultMaxStates(3, 64 * GIB)).isEqualTo((int) BreadthFirstSearch.DEFAULT_BOUND_CAP);
        assertThat(BreadthFirstSearch.defaultMaxStates(3, 6 * GIB)).isGreaterThan((int) (6 * GIB / 150));
    }

    @Test
    void theBoundAndTheBuffersFitTheHeap() {
        for (int words : new int[]{0, 1, 3, 8}) {
            for (long heap : new long[]{256L << 20, GIB, 6 * GIB}) {
                long bound = BreadthFirstSearch.defaultMaxStates(words, heap);
                assertThat(bound * BreadthFirstSearch.bytesPerStoredState(words) + BreadthFirstSearch.chunkBufferBytes(words)
                        + BreadthFirstSearch.HEAP_BESIDE_THE_SEARCH).as(words + " words, heap " + heap).isLessThanOrEqualTo(heap);
            }
        }
        // a readable state costs more than a packed one, and more words cost more
        assertThat(BreadthFirstSearch.bytesPerStoredState(0)).isGreaterThan(BreadthFirstSearch.bytesPerStoredState(8));
        assertThat(BreadthFirstSearch.bytesPerStoredState(4)).isGreaterThan(BreadthFirstSearch.bytesPerStoredState(3));
    }

    @Test
    void aHeapBelowTheBuffersStillRunsASmallSearch() {
        assertThat(BreadthFirstSearch.defaultMaxStates(3, 64L << 20)).isEqualTo(BreadthFirstSearch.LEAST_DEFAULT_BOUND);
    }
}
