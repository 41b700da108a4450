package dev.relaycheck.jdbc;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.util.Optional;

/**
 * The PostgreSQL server the tests share (relaycheck's own, started once per test JVM). On a machine
 * without the server binaries the tests that need it are skipped with the reason; under {@code CI=true}
 * they fail instead, because CI installs the binaries and a skipped check there would prove nothing.
 */
final class PostgresForTests {
    private PostgresForTests() {
    }

    static boolean ci() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    static PostgresTarget target() {
        Optional<String> why = PostgresServer.unavailable();
        if (why.isPresent()) {
            if (ci()) {
                throw new AssertionError("CI=true but PostgreSQL cannot run here: " + why.get());
            }
            Assumptions.abort("PostgreSQL tests skipped: " + why.get());
        }
        try {
            return PostgresTarget.managed();
        } catch (PostgresServer.TimedOut e) {
            // time-based: a loaded machine, not a broken server; the PostgreSQL tests are inconclusive, not failed
            return Assumptions.abort("PostgreSQL tests inconclusive: " + e.getMessage());
        } catch (IOException e) {
            throw new AssertionError("the PostgreSQL server binaries are here but the server did not start: " + e.getMessage(), e);
        }
    }
}
