package dev.relaycheck.junit;

import org.opentest4j.AssertionFailedError;

/**
 * A test's negative control: the same test run against a broken relay must fail, naming what broke and giving
 * the line that replays it. {@code expectCaught} returns the failure message, for any further assertion.
 */
public final class NegativeControls {
    private NegativeControls() {
    }

    /** A test body that may throw. */
    @FunctionalInterface
    public interface Body {
        void run() throws Exception;
    }

    /**
     * Runs {@code test}, which must fail with a relaycheck failure whose message contains {@code expected} (an
     * invariant's name, or any text) and a replay line. Fails the calling test otherwise: a test that a broken
     * relay passes proves nothing.
     */
    public static String expectCaught(String expected, Body test) {
        try {
            test.run();
        } catch (AssertionError e) {
            String m = String.valueOf(e.getMessage());
            if (!m.contains(expected) || !m.contains("replay: ")) {
                throw new AssertionFailedError("the broken relay failed the test, but not with '" + expected
                        + "' and a replay line:\n" + m, e);
            }
            return m;
        } catch (Exception e) {
            throw new AssertionFailedError("the broken relay made the test throw " + e + " instead of failing with '" + expected + "'", e);
        }
        throw new AssertionFailedError("the broken relay passed the test: it cannot tell a relay that breaks '" + expected
                + "' from a correct one");
    }
}
