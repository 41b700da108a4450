package dev.relaycheck.code.check;

import dev.relaycheck.jdbc.db.PostgresServer;
import dev.relaycheck.jdbc.db.PostgresTarget;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;

/** relaycheck's own PostgreSQL for these tests; where it cannot run they are skipped, but under CI=true they fail. */
final class PostgresForCode {
    private PostgresForCode() {
    }

    static PostgresTarget target() {
        var why = PostgresServer.unavailable();
        if (why.isPresent()) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError("CI=true but PostgreSQL cannot run here: " + why.get());
            }
            Assumptions.abort("PostgreSQL tests skipped: " + why.get());
        }
        try {
            return PostgresTarget.managed();
        } catch (PostgresServer.TimedOut e) {
            return Assumptions.abort("PostgreSQL tests inconclusive: " + e.getMessage());
        } catch (IOException e) {
            throw new AssertionError("the embedded PostgreSQL server did not start: " + e.getMessage(), e);
        }
    }
}
