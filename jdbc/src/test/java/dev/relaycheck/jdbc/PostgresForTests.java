package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.db.PostgresServer;
import dev.relaycheck.jdbc.db.PostgresTarget;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.util.Optional;

/**
 * The PostgreSQL server the tests share (relaycheck's own embedded server, started once per test JVM). On a
 * platform embedded PostgreSQL has no binaries for, the tests that need it are skipped with the reason; under
 * {@code CI=true} they fail instead, because a skipped check there would prove nothing.
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
            throw new AssertionError("the embedded PostgreSQL server did not start: " + e.getMessage(), e);
        }
    }
}
