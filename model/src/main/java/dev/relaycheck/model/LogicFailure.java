package dev.relaycheck.model;

/**
 * The logic under test broke its contract while answering one question: it threw ({@link LogicError}) or it
 * answered a question it had answered before differently ({@link NonDeterminism}). Either way no result about
 * it can be trusted, so a search stops there and reports this instead of a verdict on the invariants.
 * Raised by {@link CheckedLogic}; carries the question in relay terms, e.g.
 * {@code acceptsAck(E1:PENDING[p2/t2/exp4], t1, p1, now=3)}.
 */
public abstract sealed class LogicFailure extends RuntimeException permits LogicError, NonDeterminism {
    private final String logicId;
    private final String method;
    private final String question;

    LogicFailure(String logicId, String method, String question, String what, Throwable cause) {
        super(question + " " + what, cause, false, false);
        this.logicId = logicId;
        this.method = method;
        this.question = question;
    }

    /** {@code LOGIC-ERROR} or {@code NON-DETERMINISM}: the verdict's name as reports print it. */
    public abstract String verdict();

    /** The id of the logic that failed. */
    public String logicId() {
        return logicId;
    }

    /** The method asked, e.g. {@code acceptsAck}. */
    public String method() {
        return method;
    }

    /** The method with its arguments, e.g. {@code acceptsAck(E1:PENDING[p2/t2/exp4], t1, p1, now=3)}. */
    public String question() {
        return question;
    }

    /** One line: {@code LOGIC-ERROR in logic X: acceptsAck(...) threw ...}. */
    public String line() {
        return verdict() + " in logic " + logicId + ": " + getMessage();
    }
}
