package dev.relaycheck.checker.cli;

import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.ScenarioText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;

/** Lists the reference scenarios, or prints one in the scenario file format. */
@Command(name = "scenarios",
        description = {"List the reference scenarios, or print one as a scenario file (--show).",
                "Scenario files: -s takes a file path wherever it takes a name; "
                        + "'relaycheck scenarios --show mixed > my.scenario' then 'relaycheck explore -s my.scenario' "
                        + "searches exactly what -s mixed searches."},
        footer = {"",
                "Scenario file format: one 'key value' per line; a line starting with # is a",
                "comment. Keys (default in brackets):",
                "  name NAME              letters, digits, _.+=- [the file name, no extension]",
                "  description TEXT       one line [empty]",
                "  pollers P1 P2 ...      poller names in scheduling order [required]",
                "  stock AGGREGATE UNITS  one line per aggregate the events use",
                "  event ID AGGREGATE QUANTITY [seq N] [payload TEXT]",
                "                         in commit order; seq [previous + 1], payload",
                "                         ['take QUANTITY of AGGREGATE']; equal payloads",
                "                         expose dedup by payload",
                "  batch N                rows a claim takes at most [1]",
                "  lease N                lease length the scenario asks for, in ticks [2]",
                "  ticks N | lease+K      clock bound: tick N, or K ticks past the lease the",
                "                         logic under test grants (its leaseExpiry at tick 0),",
                "                         so a lease of any length can expire [0]",
                "  crashes N              poller crashes allowed [0]",
                "  lost-acks N            lost acknowledgements allowed [0]",
                "  deliver-fails N        failed deliveries (consumer rollbacks) allowed [0]",
                "  produce-fails N        failed produces allowed [0]",
                "  produced-during-run B  true: Produce steps commit the events [false]",
                "  requires W ...         witnesses the search must reach, else VACUOUS:",
                "                         STALE_ACK DUPLICATE_ABSORBED LEASE_RECLAIMED",
                "                         DELIVERY_RETRIED, the rest in docs/scenarios.md [none]",
                "  renewals N             lease renewals (heartbeats) allowed in all [0]",
                "  max-skew N             each poller's clock off by a skew in [-N, N] [0]",
                "  producers-overlap B    true: each produce is Begin and Commit, in any",
                "                         order (needs produced-during-run) [false]",
                "  instance-ids IDS       unique, shared (one node's id for all pollers) or",
                "                         reused (the last poller presents the first's id,",
                "                         a restart while the first still runs) [unique]",
                "  cleanup B              true: the outbox cleanup job may run [false]",
                "Unknown keys and bad values: exit 2, one line 'FILE:LINE: what is wrong'.",
                "The override flags work on every command that takes -s; each changes one",
                "field of every chosen scenario and its name: -s mixed --pollers 3 --lease 5",
                "searches 'mixed+pollers=3+lease=5'.",
                ExitCodes.FOOTER})
final class ScenariosCommand implements Runnable {
    @Option(names = "--show", paramLabel = "NAME|FILE",
            description = "print this scenario (with any override flags applied) in the scenario file format")
    String show;
    @Mixin
    ScenarioOverrides overrides = new ScenarioOverrides();
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        if (show != null) {
            Scenario s = overrides.apply(ScenarioOptions.scenario(show));
            out.println("# relaycheck scenario file (format: 'relaycheck scenarios --help'); use it with -s FILE");
            out.print(ScenarioText.write(s));
            out.flush();
            return;
        }
        for (Scenario s : ReferenceScenarios.all()) {
            out.printf("%-24s %s%n", s.name(), s.description());
            out.printf("%-24s pollers=%d events=%d batch=%d lease=%d ticks<=%s crashes<=%d lost-acks<=%d deliver-fails<=%d "
                            + "produce-fails<=%d%s requires %s%n", "", s.pollers().size(), s.events().size(), s.batch(),
                    s.leaseTicks(), s.tickBound(), s.maxCrashes(), s.maxLostAcks(), s.maxDeliverFails(), s.maxProduceFails(),
                    s.producedDuringRun() ? " produced-during-run" : "", s.requiredWitnesses());
        }
        out.flush();
    }
}
