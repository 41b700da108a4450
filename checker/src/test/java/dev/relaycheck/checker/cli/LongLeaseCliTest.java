package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.cli.ChildCli.Run;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.Scenario;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Defect 6: a correct logic that grants a longer (or shorter) lease than the scenario asks for is correct,
 * and must pass every reference scenario, not be judged VACUOUS because the clock stopped before its leases
 * could expire. Users' logics, compiled outside relaycheck, through the real CLI.
 */
class LongLeaseCliTest {

    @TempDir
    static Path dir;
    static Path jar;

    @BeforeAll
    static void compileTheLogics() {
        Map<String, String> sources = new TreeMap<>();
        for (int k = 0; k <= 3; k++) { // the scenario's lease plus k
            sources.put("com.acme.LeasePlus" + k, logic("LeasePlus" + k, "lease-plus-" + k, "now + leaseTicks + " + k, ""));
        }
        for (int c = 1; c <= 5; c++) { // a lease of its own, whatever the scenario asks
            sources.put("com.acme.FixedLease" + c, logic("FixedLease" + c, "fixed-lease-" + c, "now + " + c, ""));
        }
        sources.put("com.acme.LongLeaseAckByOwner", logic("LongLeaseAckByOwner", "long-lease-ack-by-owner",
                "now + leaseTicks + 2",
                "@Override public boolean acceptsAck(OutboxRow row, long token) { return row.isPending() && row.hasLease(); }"));
        jar = ChildCli.compileJar(dir, "acme", sources);
    }

    private static String logic(String name, String id, String expiry, String extra) {
        return "package com.acme;\nimport dev.relaycheck.model.*;\npublic final class " + name
                + " extends CorrectRelayLogic {\n  @Override public String id() { return \"" + id + "\"; }\n"
                + "  @Override public int leaseExpiry(int now, int leaseTicks) { return " + expiry + "; }\n  " + extra + "\n}\n";
    }

    /** Every reference scenario but soak (too big) and mixed-big (a minute on the readable model; see below). */
    private static String[] explore(String logicClass, List<String> scenarios) {
        List<String> args = new ArrayList<>(List.of("explore", "--logic", "com.acme." + logicClass, "--classpath",
                jar.toString(), "--results", dir.resolve("results").toString()));
        scenarios.forEach(s -> {
            args.add("-s");
            args.add(s);
        });
        return args.toArray(String[]::new);
    }

    private static List<String> referenceScenariosBut(String... left) {
        return ReferenceScenarios.all().stream().map(Scenario::name).filter(n -> !List.of(left).contains(n)).toList();
    }

    /** The shortest and longest of each kind of lease; every one with -Drelaycheck.long=true. */
    static List<String> leases() {
        return Boolean.getBoolean("relaycheck.long")
                ? List.of("LeasePlus0", "LeasePlus1", "LeasePlus2", "LeasePlus3",
                        "FixedLease1", "FixedLease2", "FixedLease3", "FixedLease4", "FixedLease5")
                : List.of("LeasePlus0", "LeasePlus3", "FixedLease1", "FixedLease5");
    }

    @ParameterizedTest
    @MethodSource("leases")
    void aCorrectLogicPassesEveryReferenceScenarioWhateverLeaseItGrants(String logicClass) {
        List<String> scenarios = referenceScenariosBut("soak", "mixed-big");
        Run r = ChildCli.run(dir, explore(logicClass, scenarios));
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains(scenarios.size() + " of " + scenarios.size() + " scenarios passed")
                .doesNotContain("VACUOUS");
    }

    /** The longest lease on the biggest scenario a test can afford. */
    @Test
    void theLongestLeasePassesMixedBig() {
        Run r = ChildCli.run(dir, explore("LeasePlus3", List.of("mixed-big")));
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("1 of 1 scenarios passed");
    }

    /** With the clock fixed at the scenario's lease (as it was), the longer lease is a false VACUOUS. */
    @Test
    void aFixedClockAtTheScenariosLeaseWouldCallTheLongerLeaseVacuous() {
        Run r = ChildCli.run(dir, explore("LeasePlus1", List.of("event-61-lost-ack")));
        assertThat(r.exit()).as(r.toString()).isZero();
        List<String> fixed = new ArrayList<>(List.of(explore("LeasePlus1", List.of("event-61-lost-ack"))));
        fixed.addAll(List.of("--ticks", "2"));
        Run vacuous = ChildCli.run(dir, fixed.toArray(String[]::new));
        assertThat(vacuous.exit()).as(vacuous.toString()).isNotZero().isNotEqualTo(2);
        assertThat(vacuous.out()).containsPattern("VACUOUS: never reached \\[.*LEASE_RECLAIMED\\]");
    }

    /** Negative control: a longer lease does not hide a broken ack. */
    @Test
    void aBrokenLogicWithALongerLeaseIsStillCaught() {
        Run r = ChildCli.run(dir, explore("LongLeaseAckByOwner", List.of("event-61-lost-ack", "stale-ack-after-expiry", "mixed")));
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).contains("VIOLATION STALE_ACK_REJECTED in scenario stale-ack-after-expiry with logic long-lease-ack-by-owner")
                .contains("VIOLATION STALE_ACK_REJECTED in scenario mixed with logic long-lease-ack-by-owner")
                .contains("0 of 3 scenarios passed");
    }
}
