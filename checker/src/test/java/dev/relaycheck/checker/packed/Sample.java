package dev.relaycheck.checker.packed;

/**
 * How much of the catalogue the agreement tests run. Every logic against every scenario is thousands of cases; by
 * default a case runs when its logic is the first (the correct one) or its logic and scenario lie on every
 * {@link #EVERY}th diagonal of the table, so each logic still meets scenarios of every kind and each scenario logics
 * of every kind. {@code -Drelaycheck.long=true} runs every case.
 */
final class Sample {
    static final boolean LONG = Boolean.getBoolean("relaycheck.long");
    static final int EVERY = 4;

    private Sample() {
    }

    /** Whether the case of the {@code logic}th logic on the {@code scenario}th scenario runs. */
    static boolean takes(int logic, int scenario) {
        return LONG || logic == 0 || (logic + scenario) % EVERY == 0;
    }

    /** Whether the {@code logic}th logic of a list runs, where each runs on every scenario. */
    static boolean takes(int logic) {
        return takes(logic, 0);
    }
}
