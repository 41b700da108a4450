package dev.relaycheck.integration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** A replay line printed by the CLI started as {@code java -jar}, pasted in the folder it ran in, reproduces. */
class JarReplayLineTest {
    @Test
    void theLineStartsWithTheJarAndReproducesFromAnyFolder(@TempDir Path team) {
        Path jar = ChildMaven.ROOT.resolve("checker/target/relaycheck.jar");
        ChildMaven.Run found = ChildMaven.pasted(team, "java -jar '" + jar + "' explore --logic ack-ignores-token"
                + " -s stale-ack-after-expiry --results results");
        assertThat(found.exit()).as(found.output()).isEqualTo(1);
        Optional<String> replay = found.output().lines().map(String::strip).filter(l -> l.contains(" replay rc1:"))
                .map(l -> l.substring(l.indexOf("java -jar "))).findFirst();
        assertThat(replay).as(found.output()).isPresent();
        assertThat(replay.get()).startsWith("java -jar " + jar + " replay ");

        ChildMaven.Run again = ChildMaven.pasted(team, replay.get());
        assertThat(again.exit()).as(again.output()).isEqualTo(1);
        assertThat(again.output()).contains("REPRODUCED STALE_ACK_REJECTED");
    }

    @Test
    void anSqlReplayLineStartsWithTheJarToo(@TempDir Path team) {
        Path jar = ChildMaven.ROOT.resolve("checker/target/relaycheck.jar");
        String cli = "java -jar '" + jar + "'";
        ChildMaven.Run found = ChildMaven.pasted(team, cli + " sql template | sed '/-- name: ack/,/-- name: release/s/ AND"
                + " lease_token = :token//' > unfenced.sql && " + cli + " sql conformance --sql unfenced.sql");
        assertThat(found.exit()).as(found.output()).isEqualTo(1);
        Optional<String> replay = found.output().lines().filter(l -> l.contains(" sql replay "))
                .map(l -> l.substring(l.indexOf("java -jar "))).findFirst();
        assertThat(replay).as(found.output()).isPresent();
        assertThat(replay.get()).startsWith("java -jar " + jar + " sql replay ");

        ChildMaven.Run again = ChildMaven.pasted(team, replay.get());
        assertThat(again.exit()).as(again.output()).isEqualTo(1);
    }
}
