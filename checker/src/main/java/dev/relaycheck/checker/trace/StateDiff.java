package dev.relaycheck.checker.trace;

import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/** What one step changed, in a few words per item: the "state that changed" column of a trace. */
public final class StateDiff {
    private StateDiff() {
    }

    public static List<String> of(Scenario scenario, RelayState before, RelayState after) {
        List<String> out = new ArrayList<>();
        if (before.clock() != after.clock()) {
            out.add("clock " + before.clock() + "->" + after.clock());
        }
        for (OutboxRow r : after.rows()) {
            OutboxRow was = before.row(r.id()).orElse(null);
            if (was == null) {
                out.add("outbox +" + r);
            } else if (!was.equals(r)) {
                out.add(r.id() + " " + rowText(was) + "->" + rowText(r));
            }
        }
        TreeSet<String> business = new TreeSet<>(after.businessWrites());
        business.removeAll(before.businessWrites());
        business.forEach(b -> out.add("business +" + b));
        Map<String, String> m0 = before.consumer().markers();
        after.consumer().markers().forEach((k, v) -> {
            if (!m0.containsKey(k)) {
                out.add("marker +" + k + (k.equals(v) ? "" : " (for " + v + ")"));
            }
        });
        after.consumer().stock().forEach((sku, units) -> {
            Integer was = before.consumer().stock().get(sku);
            if (!Objects.equals(was, units)) {
                out.add(sku + " " + was + "->" + units);
            }
        });
        for (int i = 0; i < after.pollers().size(); i++) {
            if (!before.poller(i).equals(after.poller(i))) {
                out.add(scenario.pollers().get(i) + " " + before.poller(i) + "->" + after.poller(i));
            }
        }
        if (!before.surroundings().equals(after.surroundings())) { // skews chosen, transactions open, the cursor
            out.add("[" + before.surroundings() + "]->[" + after.surroundings() + "]");
        }
        return out;
    }

    private static String rowText(OutboxRow r) {
        return r.status() + (r.lease() == null ? "" : "[" + r.lease() + "]");
    }
}
