package dev.relaycheck.checker.report;

import dev.relaycheck.checker.UsageException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the JSON relaycheck writes (summary.json) back: objects as insertion-ordered maps, arrays as lists,
 * numbers as Long or Double, strings, booleans and null. Malformed input is a usage error naming the offset.
 */
final class Json {
    private final String s;
    private final String source;
    private int i;

    private Json(String s, String source) {
        this.s = s;
        this.source = source;
    }

    static Object parse(String text, String source) {
        Json p = new Json(text, source);
        p.space();
        Object v = p.value();
        p.space();
        if (p.i != text.length()) {
            throw p.error("unexpected text after the value");
        }
        return v;
    }

    private Object value() {
        if (i >= s.length()) {
            throw error("unexpected end");
        }
        char c = s.charAt(i);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> m = new LinkedHashMap<>();
        i++;
        space();
        if (peek('}')) {
            i++;
            return m;
        }
        while (true) {
            space();
            if (!peek('"')) {
                throw error("expected a key");
            }
            String k = string();
            space();
            expect(':');
            space();
            m.put(k, value());
            space();
            if (peek(',')) {
                i++;
            } else {
                expect('}');
                return m;
            }
        }
    }

    private List<Object> array() {
        List<Object> a = new ArrayList<>();
        i++;
        space();
        if (peek(']')) {
            i++;
            return a;
        }
        while (true) {
            space();
            a.add(value());
            space();
            if (peek(',')) {
                i++;
            } else {
                expect(']');
                return a;
            }
        }
    }

    private String string() {
        StringBuilder b = new StringBuilder();
        i++;
        while (i < s.length()) {
            char c = s.charAt(i++);
            if (c == '"') {
                return b.toString();
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            if (i >= s.length()) {
                break;
            }
            char e = s.charAt(i++);
            switch (e) {
                case 'n' -> b.append('\n');
                case 't' -> b.append('\t');
                case 'r' -> b.append('\r');
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'u' -> {
                    if (i + 4 > s.length()) {
                        throw error("bad \\u escape");
                    }
                    try {
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    } catch (NumberFormatException x) {
                        throw error("bad \\u escape");
                    }
                    i += 4;
                }
                default -> b.append(e);
            }
        }
        throw error("unterminated string");
    }

    private Object number() {
        int start = i;
        while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
        String n = s.substring(start, i);
        try {
            return n.matches("-?\\d+") ? (Object) Long.parseLong(n) : (Object) Double.parseDouble(n);
        } catch (NumberFormatException e) {
            i = start;
            throw error("expected a value");
        }
    }

    private Object literal(String word, Object v) {
        if (!s.startsWith(word, i)) {
            throw error("expected a value");
        }
        i += word.length();
        return v;
    }

    private boolean peek(char c) {
        return i < s.length() && s.charAt(i) == c;
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw error("expected '" + c + "'");
        }
        i++;
    }

    private void space() {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
    }

    private UsageException error(String what) {
        return new UsageException(source + " is not valid JSON: " + what + " at character " + i);
    }
}
