package dev.relaycheck.model.command;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A command line's words as a POSIX shell reads them, both ways: {@link #quote} writes a word so the shell reads it
 * back as it is (replay lines are pasted into a shell), {@link #join} a line of such words, {@link #split} reads a pasted line the way the shell would.
 */
public final class ShellWords {
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_./:=@%+,-]+");

    private ShellWords() {
    }

    /** {@code word} as is where the shell takes it so, else in single quotes ({@code '\''} for a quote inside). */
    public static String quote(String word) {
        return SAFE.matcher(word).matches() ? word : "'" + word.replace("'", "'\\''") + "'";
    }

    /** {@code words} as one line the shell reads back as those words, each quoted where it has to be. */
    public static String join(List<String> words) {
        return String.join(" ", words.stream().map(ShellWords::quote).toList());
    }

    /** The words of {@code line}: blanks separate them; single and double quotes; a backslash outside single quotes. */
    public static List<String> split(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        char quote = 0;
        boolean any = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < line.length()) {
                    w.append(line.charAt(++i));
                } else {
                    w.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                any = true;
            } else if (c == '\\' && i + 1 < line.length()) {
                w.append(line.charAt(++i));
                any = true;
            } else if (Character.isWhitespace(c)) {
                if (any) {
                    words.add(w.toString());
                    w.setLength(0);
                    any = false;
                }
            } else {
                w.append(c);
                any = true;
            }
        }
        if (any) {
            words.add(w.toString());
        }
        return words;
    }
}
