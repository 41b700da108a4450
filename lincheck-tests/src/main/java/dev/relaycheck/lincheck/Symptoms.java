package dev.relaycheck.lincheck;

import dev.relaycheck.lincheck.ResultsTable.Actor;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Invariant;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a non-linearizable run's answers show broke, when they show it whatever the interleaving: each rule is a
 * fact of the results table alone (the answers, program order, the parts' order and Lincheck's happens-before
 * clocks) that no run of the correct model can produce, and names the invariant it breaks. A run none of them fits
 * is only non-linearizable: which invariant its difference breaks depends on an order the table does not show.
 */
final class Symptoms {
    private static final Pattern GRANT = Pattern.compile("\\b(E\\d+)/t-?\\d+( \\(not above t-?\\d+)?");

    private Symptoms() {
    }

    /** The invariant a failed run's answers show broken, and the sentence that says how; empty when none can be named. */
    record Symptom(Invariant invariant, String sentence) {
        @Override
        public String toString() {
            return invariant + ": " + sentence;
        }
    }

    static Optional<Symptom> in(String report) {
        List<Actor> run = ResultsTable.read(report).actors();
        for (Actor a : run) {
            Matcher m = GRANT.matcher(a.operation().equals("claim") ? a.result() : "");
            while (m.find()) {
                if (m.group(2) != null) {
                    return symptom(Invariant.STALE_ACK_REJECTED, a.call() + " was granted " + m.group(1) + " with a token not above one "
                            + m.group(1) + " had been granted before: a claim must issue a token above every earlier one of its row");
                }
            }
        }
        for (int i = 0; i < run.size(); i++) {
            for (Actor b : run.subList(i + 1, run.size())) {
                Actor a = run.get(i);
                if (delivered(a, "APPLIED") && delivered(b, "APPLIED") && event(a).equals(event(b))) {
                    return symptom(Invariant.EFFECT_AT_MOST_ONCE, a.call() + " and " + b.call() + " both answered APPLIED: "
                            + event(a) + "'s effect was applied twice");
                }
            }
        }
        for (Actor a : run) {
            if (delivered(a, "DUPLICATE") && run.stream().noneMatch(b -> delivered(b, "APPLIED") && event(b).equals(event(a)))) {
                Optional<Actor> ack = run.stream().filter(b -> settled(b, "ack", "ACKED") && event(b).equals(event(a))).findFirst();
                if (ack.isPresent()) {
                    return symptom(Invariant.NO_LOST_EVENT, a.call() + " answered DUPLICATE though no delivery of " + event(a)
                            + " was applied, and " + ack.get().call() + " marked it delivered: " + event(a) + "'s effect is lost");
                }
            }
        }
        for (Actor a : run) {
            for (Actor b : run) {
                if (delivered(a, "DUPLICATE") && b.operation().equals("stock") && a.returnedBefore(b)
                        && b.result().equals(String.valueOf(StoreDomain.INITIAL_STOCK))) {
                    return symptom(Invariant.MARKER_IFF_EFFECT, a.call() + " answered DUPLICATE, yet " + b.call() + " read "
                            + b.result() + " after it, the stock before any effect: a marker was there without its effect");
                }
            }
        }
        boolean ticked = run.stream().anyMatch(a -> a.operation().equals("tick"));
        for (int i = 0; i < run.size(); i++) {
            for (Actor b : run.subList(i + 1, run.size())) {
                Actor a = run.get(i);
                for (String row : granted(a)) {
                    boolean settledRow = run.stream().anyMatch(s -> (settled(s, "ack", "ACKED") || settled(s, "release", "RELEASED"))
                            && event(s).equals(row));
                    if (!ticked && !settledRow && !poller(a).equals(poller(b)) && granted(b).contains(row)) {
                        return symptom(Invariant.SINGLE_LIVE_LEASE, a.call() + " and " + b.call() + " were both granted " + row
                                + ", with no tick and no accepted ack or release of " + row + " in the run: two pollers held live "
                                + "leases on it at once");
                    }
                }
            }
        }
        for (Actor a : run) {
            for (String row : granted(a)) {
                Event e = StoreDomain.EVENTS.stream().filter(x -> x.id().equals(row)).findFirst().orElse(null);
                for (Event ahead : StoreDomain.EVENTS) {
                    if (e != null && ahead.aggregate().equals(e.aggregate()) && ahead.seq() < e.seq()
                            && run.stream().noneMatch(s -> settled(s, "ack", "ACKED") && event(s).equals(ahead.id()))) {
                        return symptom(Invariant.AGGREGATE_ORDER, a.call() + " was granted " + row + " while " + ahead.id()
                                + ", ahead of it in " + e.aggregate() + ", was never acknowledged in the run: the claim skipped "
                                + "the head of its aggregate");
                    }
                }
            }
        }
        for (Actor settle : run) {
            if (!settled(settle, "ack", "ACKED") && !settled(settle, "release", "RELEASED")) {
                continue;
            }
            String row = event(settle);
            // the poller's own latest grant of the row before it settled: the token it presented
            Optional<Actor> own = run.stream().filter(c -> poller(c).equals(poller(settle)) && granted(c).contains(row)
                    && c.returnedBefore(settle)).reduce((x, y) -> y);
            for (Actor other : run) {
                if (own.isPresent() && !poller(other).equals(poller(settle)) && granted(other).contains(row)
                        && own.get().returnedBefore(other) && other.returnedBefore(settle)) {
                    return symptom(Invariant.STALE_ACK_REJECTED, settle.call() + " was accepted, yet " + other.call()
                            + " had granted " + row + " again before it began: " + (settle.operation().equals("ack") ? "an ack" : "a release")
                            + " with a superseded token changed the row");
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<Symptom> symptom(Invariant i, String sentence) {
        return Optional.of(new Symptom(i, sentence));
    }

    private static List<String> granted(Actor a) {
        if (!a.operation().equals("claim")) {
            return List.of();
        }
        List<String> rows = new java.util.ArrayList<>();
        Matcher m = GRANT.matcher(a.result());
        while (m.find()) {
            rows.add(m.group(1));
        }
        return rows;
    }

    private static boolean delivered(Actor a, String answer) {
        return a.operation().equals("deliver") && a.result().equals(answer);
    }

    private static boolean settled(Actor a, String operation, String answer) {
        return a.operation().equals(operation) && a.result().equals(answer);
    }

    private static String poller(Actor a) {
        return a.args().isEmpty() ? "" : a.args().get(0);
    }

    private static String event(Actor a) {
        return a.args().size() < 2 ? "" : a.args().get(1);
    }
}
