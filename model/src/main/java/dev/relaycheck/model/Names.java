package dev.relaycheck.model;

/** Validation of names that appear in steps, traces and replay records. */
final class Names {
    private Names() {
    }

    /** Names are printed inside {@code Step(...)} text, so they may not contain separators. */
    static String requireToken(String value, String what) {
        if (value == null || value.isEmpty() || !value.matches("[A-Za-z0-9_.:#/-]+")) {
            throw new IllegalArgumentException(what + " must be a non-empty name of letters, digits and _.:#/- but was '" + value + "'");
        }
        return value;
    }
}
