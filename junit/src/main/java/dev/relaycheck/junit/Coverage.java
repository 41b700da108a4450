package dev.relaycheck.junit;

import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Witness;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What a property check ran and what it left out, so a pass is read for what it is: the scenarios it ran, the shipped
 * scenarios it did not (each one hazard: clock skew, lease renewal, ...), the faults none of its scenarios injects,
 * and the witnesses no run reached. {@code relaycheck check} runs every shipped scenario.
 *
 * @param ran                 the scenarios run, in order
 * @param notRun              the shipped scenarios not run, in the catalogue's order
 * @param faultsNotInjected   the kinds of fault none of the scenarios run allows
 * @param witnessesNotReached the witnesses no run reached, in enum order
 * @param checksNotRun        whole checks a property does not run (a SQL relay's race and crash-kill checks), or none
 */
public record Coverage(List<String> ran, List<String> notRun, List<String> faultsNotInjected,
                       List<Witness> witnessesNotReached, List<String> checksNotRun) {

    public Coverage {
        ran = List.copyOf(ran);
        notRun = List.copyOf(notRun);
        faultsNotInjected = List.copyOf(faultsNotInjected);
        witnessesNotReached = List.copyOf(witnessesNotReached);
        checksNotRun = List.copyOf(checksNotRun);
    }

    /** The coverage of {@code scenarios} run, in which {@code reached} were seen. */
    static Coverage of(List<Scenario> scenarios, Collection<Witness> reached, List<String> checksNotRun) {
        List<String> ran = scenarios.stream().map(Scenario::name).toList();
        List<String> notRun = ReferenceScenarios.all().stream().map(Scenario::name).filter(n -> !ran.contains(n)).toList();
        List<String> faults = new ArrayList<>();
        none(scenarios, s -> s.maxCrashes() > 0, "poller crashes", faults);
        none(scenarios, s -> s.maxLostAcks() > 0, "lost acks", faults);
        none(scenarios, s -> s.maxDeliverFails() > 0, "failed deliveries", faults);
        none(scenarios, s -> s.maxProduceFails() > 0, "failed produces", faults);
        none(scenarios, s -> s.maxRenewals() > 0, "lease renewals", faults);
        none(scenarios, s -> s.maxSkew() > 0, "clock skew", faults);
        none(scenarios, Scenario::producersOverlap, "overlapping producers", faults);
        none(scenarios, Scenario::cleanup, "the outbox cleanup", faults);
        none(scenarios, s -> s.instanceIds() != Scenario.InstanceIds.UNIQUE, "shared or reused instance ids", faults);
        Set<Witness> missing = EnumSet.allOf(Witness.class);
        missing.removeAll(reached);
        return new Coverage(ran, notRun, faults, List.copyOf(missing), checksNotRun);
    }

    private static void none(List<Scenario> scenarios, java.util.function.Predicate<Scenario> has, String fault, List<String> out) {
        if (scenarios.stream().noneMatch(has)) {
            out.add(fault);
        }
    }

    /** One line: what ran, then what did not. */
    public String line() {
        StringBuilder b = new StringBuilder("ran scenarios " + ran);
        if (!notRun.isEmpty()) {
            b.append("; not run: scenarios ").append(notRun);
        }
        if (!faultsNotInjected.isEmpty()) {
            b.append("; faults never injected: ").append(faultsNotInjected);
        }
        if (!witnessesNotReached.isEmpty()) {
            b.append("; witnesses never reached: ").append(witnessesNotReached);
        }
        if (!checksNotRun.isEmpty()) {
            b.append("; checks not run: ").append(checksNotRun);
        }
        return b.append(" (relaycheck check runs every shipped scenario)").toString();
    }
}
