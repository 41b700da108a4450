package dev.relaycheck.lincheck;

import dev.relaycheck.lincheck.StoreDomain.EventId;
import kotlin.Unit;
import kotlin.jvm.functions.Function1;
import kotlin.reflect.KFunction;
import kotlin.reflect.jvm.ReflectJvmMapping;
import org.jetbrains.lincheck.datastructures.DSLScenarioBuilder;
import org.jetbrains.lincheck.datastructures.DSLThreadScenario;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The relay's known hazards as fixed Lincheck scenarios, run before the random ones. Random generation over
 * {@link StoreDomain} finds every broken target too ({@code -Dlincheck.hazards=false -Dlincheck.iterations=50}
 * catches all of them, in up to 18 s each), but only after tens of scenarios; as fixed scenarios they are
 * explored in every run within a second or two, so the default budget catches every broken target and the
 * correct store is always checked on exactly these shapes. Lincheck still chooses the interleavings: a
 * scenario says which operations run on which thread, not in what order they interleave. A scenario names what
 * it is built to expose; what a failing store broke is read from its answers ({@link Symptoms}), never assumed
 * from the scenario. Each poller runs on one thread of the parallel part (and maybe before it), as a real one does.
 */
public final class HazardScenarios {
    private HazardScenarios() {
    }

    /** One operation call, printed the way Lincheck prints it. */
    public record Call(String operation, List<Object> args) {
        @Override
        public String toString() {
            return operation + args.stream().map(String::valueOf).collect(Collectors.joining(", ", "(", ")"));
        }
    }

    /**
     * A scenario: operations run first on one thread, then the parallel part.
     *
     * @param name    stable name
     * @param exposes what a wrong store may show in it
     */
    public record Hazard(String name, String exposes, List<Call> initial, List<List<Call>> threads) {
        /** The calls as Lincheck prints them: {@code init claim(1), tick() | ack(1, E1) | claim(2), ack(2, E1)}. */
        String signature(boolean withStock) {
            List<String> parts = new ArrayList<>();
            parts.add(calls(initial, withStock));
            threads.stream().map(t -> calls(t, withStock)).sorted().forEach(parts::add);
            return String.join(" | ", parts);
        }

        private static String calls(List<Call> calls, boolean withStock) {
            return calls.stream().filter(c -> withStock || !c.operation().equals("stock")).map(Call::toString)
                    .collect(Collectors.joining(", "));
        }
    }

    private static final Pattern CALL = Pattern.compile("\\b(claim|deliver|ack|release|tick|stock)\\(([^)]*)\\)");

    /**
     * The hazard whose scenario a Lincheck results summary ({@link LincheckFailures#resultsSummary}) ran, so a
     * failure on it can say which scenario it was; empty for a random scenario.
     */
    public static Optional<Hazard> ranIn(String resultsSummary) {
        String init = "";
        List<String> threads = new ArrayList<>();
        for (String section : resultsSummary.split("; ")) {
            if (section.startsWith("init ")) {
                init = callsIn(section);
            } else if (section.startsWith("parallel ")) {
                for (String thread : section.substring("parallel ".length()).split(" / ")) {
                    threads.add(callsIn(thread));
                }
            } else if (section.startsWith("post ")) {
                return Optional.empty(); // the hazards have no part after the parallel one
            }
        }
        threads.sort(null);
        List<String> parts = new ArrayList<>();
        parts.add(init);
        parts.addAll(threads);
        String seen = String.join(" | ", parts);
        return ALL.stream().filter(h -> h.signature(true).equals(seen) || h.signature(false).equals(seen)).findFirst();
    }

    private static String callsIn(String text) {
        List<String> calls = new ArrayList<>();
        Matcher m = CALL.matcher(text);
        while (m.find()) {
            calls.add(m.group(1) + "(" + m.group(2) + ")");
        }
        return String.join(", ", calls);
    }

    private static final int P1 = 1;
    private static final int P2 = 2;

    public static final List<Hazard> ALL = List.of(
            new Hazard("double-claim", "two claims of the head row at once both win it (or one skips the head)", List.of(),
                    List.of(List.of(call("claim", P1)), List.of(call("claim", P2)))),
            new Hazard("concurrent-redelivery", "two deliveries of a re-claimed event: both apply it, or one answers "
                    + "DUPLICATE while the stock is still untouched",
                    List.of(call("claim", P1), call("tick"), call("claim", P2)),
                    List.of(List.of(call("deliver", P1, EventId.E1), call("stock")),
                            List.of(call("deliver", P2, EventId.E1), call("stock")))),
            new Hazard("stale-ack-after-reclaim", "the expired owner acks after another poller re-claimed the row: the "
                    + "ack must be STALE, on one thread as on many", List.of(call("claim", P1), call("tick"), call("claim", P2)),
                    List.of(List.of(call("ack", P1, EventId.E1)), List.of(call("deliver", P2, EventId.E1)))),
            new Hazard("stale-release-after-reclaim", "the expired owner releases after another poller re-claimed the row: "
                    + "the release must be STALE", List.of(call("claim", P1), call("tick"), call("claim", P2)),
                    List.of(List.of(call("release", P1, EventId.E1)), List.of(call("deliver", P2, EventId.E1)))),
            new Hazard("ack-racing-reclaim", "the expired owner's ack races another poller's re-claim of the row",
                    List.of(call("claim", P1), call("tick")),
                    List.of(List.of(call("ack", P1, EventId.E1)),
                            List.of(call("claim", P2), call("ack", P2, EventId.E1)))),
            new Hazard("release-racing-reclaim", "the expired owner's release races another poller's re-claim: it must "
                    + "never free its successor's lease", List.of(call("claim", P1), call("tick")),
                    List.of(List.of(call("release", P1, EventId.E1)),
                            List.of(call("claim", P2), call("ack", P2, EventId.E1)))),
            new Hazard("equal-payloads", "the second of two events with equal payloads: a payload-keyed consumer takes it "
                    + "for the first and drops it",
                    List.of(call("claim", P1), call("deliver", P1, EventId.E1), call("ack", P1, EventId.E1)),
                    List.of(List.of(call("claim", P1), call("deliver", P1, EventId.E2), call("ack", P1, EventId.E2)),
                            List.of(call("tick")))));

    private static Call call(String operation, Object... args) {
        return new Call(operation, Arrays.asList(args));
    }

    /** The hazard as a Lincheck custom scenario over {@link RelayStoreOperations}. */
    public static Function1<DSLScenarioBuilder, Unit> toLincheck(Hazard hazard) {
        return toLincheck(hazard, RelayStoreOperations.class);
    }

    /**
     * The hazard over the operations of {@code testClass}; calls of an operation the class does not have (the
     * {@code stock()} observer of {@link OutcomeOnlyOperations}) are left out.
     */
    public static Function1<DSLScenarioBuilder, Unit> toLincheck(Hazard hazard, Class<?> testClass) {
        return scenario -> {
            if (!hazard.initial().isEmpty()) {
                scenario.initial(thread -> actors(thread, hazard.initial(), testClass));
            }
            scenario.parallel(parallel -> {
                for (List<Call> calls : hazard.threads()) {
                    parallel.thread(thread -> actors(thread, calls, testClass));
                }
                return Unit.INSTANCE;
            });
            return Unit.INSTANCE;
        };
    }

    private static Unit actors(DSLThreadScenario thread, List<Call> calls, Class<?> testClass) {
        for (Call c : calls) {
            KFunction<?> op = operation(c.operation(), testClass);
            if (op != null) {
                thread.actor(op, c.args().toArray());
            }
        }
        return Unit.INSTANCE;
    }

    /** The operation method by name (operation names are unique in the test class). */
    static KFunction<?> operation(String name) {
        KFunction<?> op = operation(name, RelayStoreOperations.class);
        if (op == null) {
            throw new IllegalArgumentException("RelayStoreOperations has no operation " + name);
        }
        return op;
    }

    private static KFunction<?> operation(String name, Class<?> testClass) {
        for (Method m : testClass.getMethods()) {
            if (m.getName().equals(name)) {
                return ReflectJvmMapping.getKotlinFunction(m);
            }
        }
        return null;
    }
}
