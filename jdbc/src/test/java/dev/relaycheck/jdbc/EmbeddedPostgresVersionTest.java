package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.db.PostgresServer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --db postgres} runs the PostgreSQL of the binaries BOM this build was given ({@code postgres.binaries.version}:
 * the parent pom's, or {@code -Dpostgres.binaries.version=14.22.0}), from the binaries in its jars: not a server the
 * machine has installed (this image has Debian's PostgreSQL 15 on its PATH, which must play no part).
 */
class EmbeddedPostgresVersionTest {
    @Test
    void theServerIsTheBinariesBomsVersionRunFromTheJarsBinaries() throws IOException {
        PostgresForTests.target();
        PostgresServer server = PostgresServer.shared();
        String bom = System.getProperty("postgres.binaries.version");
        System.out.println("--db postgres: " + server + ", binaries BOM " + bom);
        assertThat(bom).as("the build passes the BOM's version").isNotBlank();
        assertThat(bom).as("zonky's version is the server's version and a build number").startsWith(server.version() + ".");

        List<ProcessHandle> postmaster = PostgresServer.processesOf(server.dataDirectory()).stream()
                .filter(p -> p.info().command().map(c -> c.endsWith("/postgres") || c.endsWith("\\postgres.exe")).orElse(false))
                .toList();
        assertThat(postmaster).as("the server's processes").isNotEmpty();
        for (ProcessHandle p : postmaster) {
            String binary = p.info().command().orElseThrow();
            System.out.println("  process " + p.pid() + ": " + binary);
            assertThat(binary).as("unpacked from the jar, not the machine's").doesNotStartWith("/usr/lib/postgresql")
                    .doesNotStartWith("/usr/local/").doesNotStartWith("/opt/homebrew").contains("embedded-pg");
        }
    }
}
