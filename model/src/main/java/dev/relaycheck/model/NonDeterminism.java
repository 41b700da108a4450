package dev.relaycheck.model;

/** The logic under test answered the same question twice, differently: it is not a function of its arguments. */
public final class NonDeterminism extends LogicFailure {

    NonDeterminism(String logicId, String method, String question, Object first, Object second) {
        super(logicId, method, question, "answered " + first + ", then " + second, null);
    }

    @Override
    public String verdict() {
        return "NON-DETERMINISM";
    }
}
