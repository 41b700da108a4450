package dev.relaycheck.model;

/**
 * The logic under test threw while answering a question (or answered null, which no decision may), or did not
 * answer within the decision time limit ({@link #timedOut()}, see {@link DecisionWatch}).
 */
public final class LogicError extends LogicFailure {
    private final boolean timedOut;

    LogicError(String logicId, String method, String question, String what, Throwable cause) {
        this(logicId, method, question, what, cause, false);
    }

    LogicError(String logicId, String method, String question, String what, Throwable cause, boolean timedOut) {
        super(logicId, method, question, what, cause);
        this.timedOut = timedOut;
    }

    @Override
    public String verdict() {
        return "LOGIC-ERROR";
    }

    /** The decision ran past the time limit; its cause's stack is where the thread was when the limit passed. */
    public boolean timedOut() {
        return timedOut;
    }

    /** {@link #line()}, then (for a decision that timed out) the frames the thread was in, one a line. */
    public String lineWithStack() {
        StringBuilder b = new StringBuilder(line());
        StackTraceElement[] frames = timedOut && getCause() != null ? getCause().getStackTrace() : new StackTraceElement[0];
        for (int i = 0; i < frames.length; i++) {
            b.append(i == 0 ? "\n  stack:      " : "\n              ").append(frame(frames[i]));
        }
        return b.toString();
    }

    /** A frame as a person reads it: {@code com.acme.Logic.isClaimable(Logic.java:9)}, without the class loader's name. */
    public static String frame(StackTraceElement f) {
        String where = f.getFileName() == null ? "Unknown Source"
                : f.getLineNumber() >= 0 ? f.getFileName() + ":" + f.getLineNumber() : f.getFileName();
        return f.getClassName() + "." + f.getMethodName() + "(" + where + ")";
    }
}
