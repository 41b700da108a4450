package dev.relaycheck.stress.user;

import dev.relaycheck.model.store.UserTarget;
import dev.relaycheck.model.testsupport.UserJar;
import dev.relaycheck.stress.Curriculum;
import dev.relaycheck.stress.run.JCStressRunner;
import dev.relaycheck.stress.run.JcstressJudge;
import dev.relaycheck.stress.run.JcstressRow;
import dev.relaycheck.stress.run.TestRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The user's logic in the shipped store, through real jcstress runs in child JVMs (jcstress runs once per JVM):
 * a user's race is reported with its invariant, the forks prove they loaded the user's class from the user's
 * jar, and a fork that cannot load it fails loudly instead of running something else.
 */
class UserTargetRunTest {

    @TempDir
    Path dir;

    @Test
    void aUsersRacyLogicFailsTheHarnessNamingTheInvariantAndTheForksProveTheyRanIt() throws Exception {
        Path jar = UserJar.compile(dir, "acme", Map.of("com.acme.OwnerFencedRelay", UserJars.OWNER_FENCED_LOGIC));
        UserJars.Run r = UserJars.java(dir, Curriculum.class.getName(), "--tests", "Lease_02", "--iterations", "1",
                "--logic", "com.acme.OwnerFencedRelay", "--classpath", jar.toString(), "--out", dir.resolve("out").toString());
        assertThat(r.exit()).as(r.output()).isEqualTo(1);
        assertThat(r.output()).contains("FAILED   Lease_02_StaleAckAfterExpiry  acme-owner-fenced  forbidden [1, 2, 0, 7]")
                .contains("(STALE_ACK_REJECTED)")
                .contains("ran logic com.acme.OwnerFencedRelay from " + jar.toAbsolutePath().normalize() + " in the shipped store, proven by");
        try (Stream<Path> proofs = Files.list(dir.resolve("out/user-proof"))) {
            List<Path> files = proofs.toList();
            assertThat(files).isNotEmpty();
            for (Path f : files) {
                assertThat(Files.readAllLines(f)).containsExactly("logic com.acme.OwnerFencedRelay from " + jar.toAbsolutePath().normalize());
            }
        }
    }

    @Test
    void aForkWhoseJarIsMissingErrorsOutInsteadOfFallingBack() throws Exception {
        // jcstress itself, with the user's class named right but its jar gone: the harness must not build a state
        Path work = Files.createDirectories(dir.resolve("raw"));
        UserJars.Run r = UserJars.java(work, "org.openjdk.jcstress.Main", "-m", "quick", "-iters", "1", "-sc", "false",
                "-pth", "false", "-c", "2", "-jvmArgs", "-Xmx256m",
                "-jvmArgs", "-D" + UserTarget.LOGIC + "=com.acme.GoodRelay",
                "-jvmArgs", "-D" + UserTarget.CLASSPATH + "=" + dir.resolve("missing.jar"),
                "-t", "Lease_01_DoubleClaim\\.User$", "-r", work.resolve("report").toString());
        assertThat(r.exit()).as(r.output()).isNotZero();
        Path blob;
        try (Stream<Path> files = Files.list(work)) {
            blob = files.filter(p -> p.getFileName().toString().matches("jcstress-results-.*\\.bin\\.gz")).findFirst().orElseThrow();
        }
        List<TestRun> runs = JCStressRunner.read(blob);
        assertThat(runs).singleElement().satisfies(run -> {
            assertThat(run.completed()).isFalse();
            assertThat(String.join("\n", run.messages())).contains("cannot load the user's classes in this JVM: class path entry does not exist");
            JcstressRow v = JcstressJudge.judge(run);
            assertThat(v.verdict()).isEqualTo("FAILED");
            assertThat(v.detail()).startsWith("jcstress status CHECK_TEST_ERROR");
        });
    }
}
