package dev.relaycheck.model;

/** The logic under test threw while answering a question (or answered null, which no decision may). */
public final class LogicError extends LogicFailure {

    LogicError(String logicId, String method, String question, String what, Throwable cause) {
        super(logicId, method, question, what, cause);
    }

    @Override
    public String verdict() {
        return "LOGIC-ERROR";
    }
}
