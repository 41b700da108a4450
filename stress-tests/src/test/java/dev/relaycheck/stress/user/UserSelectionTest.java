package dev.relaycheck.stress.user;

import dev.relaycheck.model.CorrectRelayLogic;
import dev.relaycheck.model.store.UserTarget;
import dev.relaycheck.model.testsupport.UserJar;
import dev.relaycheck.stress.run.CurriculumOptions;
import dev.relaycheck.stress.run.ForkProof;
import dev.relaycheck.stress.run.JCStressRunner;
import dev.relaycheck.stress.run.JcstressRow;
import dev.relaycheck.stress.run.JcstressUsageException;
import dev.relaycheck.stress.run.JcstressUserClasses;
import dev.relaycheck.stress.run.UserVerdicts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which tests a user run selects, how bad user input is refused, and how the fork proof judges a run. */
class UserSelectionTest {

    @TempDir
    Path dir;

    @Test
    void theShippedCurriculumLeavesTheUserTestsOutAndAUserRunRunsOnlyThem() throws Exception {
        List<String> shipped = JCStressRunner.select(CurriculumOptions.defaults());
        assertThat(shipped).isNotEmpty().noneMatch(t -> t.endsWith(".User"));
        Path jar = UserJar.compile(dir, "acme", Map.of("com.acme.GoodRelay", UserJars.GOOD_LOGIC,
                "com.acme.SeeingStore", STORE.formatted("SeeingStore", "super.snapshot()"),
                "com.acme.BlindStore", STORE.formatted("BlindStore", "java.util.Optional.empty()")));
        CurriculumOptions logic = CurriculumOptions.parse(new String[]{"--logic", "com.acme.GoodRelay", "--classpath", jar.toString()});
        List<String> user = JCStressRunner.select(logic);
        long harnesses = shipped.stream().map(t -> t.substring(0, t.lastIndexOf('.'))).distinct().count();
        assertThat(user).hasSize((int) harnesses).allMatch(t -> t.endsWith(".User")); // one User test a harness
        // a store has no produce operation: the producer harness is left out
        CurriculumOptions store = CurriculumOptions.parse(new String[]{"--store", "com.acme.SeeingStore", "--classpath",
                jar.toString(), "--tests", "Lease|Produce"});
        assertThat(JCStressRunner.select(store)).isEqualTo(user.stream().filter(t -> t.contains(".Lease_")).toList());
        // a store without a snapshot: only the outcome-only harness can judge it
        CurriculumOptions blind = CurriculumOptions.parse(new String[]{"--store", "com.acme.BlindStore", "--classpath", jar.toString()});
        assertThat(blind.user().outcomeOnly()).isTrue();
        assertThat(JCStressRunner.select(blind)).containsExactly("dev.relaycheck.stress.Lease_01_DoubleClaim.User");
    }

    /** A user's store on the shipped one, with or without a snapshot. */
    private static final String STORE = """
            package com.acme;
            import dev.relaycheck.model.*;
            import java.util.*;
            public class %1$s extends dev.relaycheck.model.store.ConcurrentRelayStore {
                public %1$s(List<Event> events, Map<String, Integer> stock, int leaseTicks) {
                    super(dev.relaycheck.model.catalogue.LogicCatalogue.correct(), events, stock, leaseTicks);
                }
                @Override public Optional<RelayState> snapshot() { return %2$s; }
            }
            """;

    @Test
    void badUserClassesAreOneUsageLine() throws Exception {
        Path jar = UserJar.compile(dir, "acme", Map.of("com.acme.GoodRelay", UserJars.GOOD_LOGIC));
        assertThatThrownBy(() -> new JcstressUserClasses("com.acme.GoodRelay", "", dir.resolve("missing.jar").toString()).load())
                .isInstanceOf(JcstressUsageException.class).hasMessageStartingWith("class path entry does not exist");
        assertThatThrownBy(() -> new JcstressUserClasses("com.acme.Nope", "", jar.toString()).load())
                .isInstanceOf(JcstressUsageException.class).hasMessageStartingWith("class com.acme.Nope not found on");
        // a class of the same name on relaycheck's own class path wins parent-first loading: refused, never run
        assertThatThrownBy(() -> new JcstressUserClasses(CorrectRelayLogic.class.getName(), "", jar.toString()).load())
                .isInstanceOf(JcstressUsageException.class).hasMessageContaining("is already on relaycheck's own class path");
        assertThatThrownBy(() -> CurriculumOptions.parse(new String[]{"--classpath", jar.toString()}))
                .isInstanceOf(JcstressUsageException.class).hasMessage("--classpath needs --logic CLASS or --store CLASS");
    }

    @Test
    void aRunIsOnlyProvenWhenEveryForkNamesExactlyTheUsersClasses() throws Exception {
        Path jar = UserJar.compile(dir, "acme", Map.of("com.acme.GoodRelay", UserJars.GOOD_LOGIC));
        UserTarget user = new JcstressUserClasses("com.acme.GoodRelay", "", jar.toString()).load();
        Path out = dir.resolve("out");
        Path proofs = Files.createDirectories(JcstressUserClasses.proofDir(out));
        assertThat(ForkProof.check(out, user)).get().asString().startsWith("no forked JVM wrote a proof");

        Files.write(proofs.resolve(UserTarget.PROOF_PREFIX + "1.txt"), user.proofLines());
        assertThat(ForkProof.check(out, user)).isEmpty();

        // a second fork that ran the shipped correct logic instead
        Files.write(proofs.resolve(UserTarget.PROOF_PREFIX + "2.txt"),
                List.of("logic " + UserTarget.origin(CorrectRelayLogic.class)));
        Optional<String> problem = ForkProof.check(out, user);
        assertThat(problem).get().asString().startsWith("a forked JVM ran logic dev.relaycheck.model.CorrectRelayLogic from");

        JcstressRow passed = new JcstressRow("Lease_01_DoubleClaim", "user", "PASS", "PASS", "no forbidden outcome");
        assertThat(UserVerdicts.attribute(List.of(passed), user, problem, 2)).singleElement().satisfies(v -> {
            assertThat(v.target()).isEqualTo("acme-good");
            assertThat(v.verdict()).isEqualTo("FAILED");
            assertThat(v.detail()).startsWith("not proven to have run the user's classes: a forked JVM ran");
        });
    }
}
