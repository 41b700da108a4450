package dev.relaycheck.model.command;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ShellWordsTest {
    @Test
    void aQuotedWordReadsBackAsItWas() {
        List<String> words = List.of("replay", "it's", "a b", "", "x=\"1\"", "back\\slash", "$HOME", "plain-word_1.2:3");
        String line = ShellWords.join(words);
        assertThat(ShellWords.split(line)).containsExactlyElementsOf(words);
    }

    @Test
    void readsALineAsTheShellDoes() {
        assertThat(ShellWords.split("  a  'b c'\"d \\\" e\"f\\ g 'it'\\''s'  ")).containsExactly("a", "b cd \" ef g", "it's");
        assertThat(ShellWords.quote("--seed")).isEqualTo("--seed");
        assertThat(ShellWords.quote("E1 E2")).isEqualTo("'E1 E2'");
    }
}
