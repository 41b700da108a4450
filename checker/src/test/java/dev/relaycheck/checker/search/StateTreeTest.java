package dev.relaycheck.checker.search;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StateTreeTest {

    @Test
    void numbersAcrossBlocksKeepTheirParentsAndChoices() {
        StateTree tree = new StateTree();
        assertThat(tree.extend(1)).isZero();
        tree.put(0, -1, 0);
        int first = tree.extend(2_500_000); // past two blocks of a million, in one extension
        assertThat(first).isEqualTo(1);
        for (int id = 1; id <= 2_500_000; id++) {
            tree.put(id, id / 3, id % 7);
        }
        assertThat(tree.extend(10)).isEqualTo(2_500_001);
        assertThat(tree.size()).isEqualTo(2_500_011);
        for (int id : new int[] {1, 1_048_575, 1_048_576, 2_097_152, 2_500_000}) {
            assertThat(tree.parent(id)).isEqualTo(id / 3);
            assertThat(tree.choice(id)).isEqualTo(id % 7);
        }
        assertThat(tree.parent(0)).isEqualTo(-1);
        assertThat(tree.bytes()).isEqualTo(3L * (1 << 20) * 5); // three whole blocks, nothing copied twice
        tree.truncate(5);
        assertThat(tree.size()).isEqualTo(5);
        assertThat(tree.choice(200)).isEqualTo(200 % 7); // the choice byte holds steps up to 255
    }

    @Test
    void aSmallTreeTakesLittleMemory() {
        StateTree tree = new StateTree();
        tree.extend(3_000);
        assertThat(tree.bytes()).isEqualTo(4096 * 5);
    }
}
