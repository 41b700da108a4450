package dev.relaycheck.jdbc.conformance;

import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.RelayState;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/** Field-by-field differences between the model's state and the state rebuilt from the SQL tables. */
public final class SqlStateDiff {
    private SqlStateDiff() {
    }

    /** Every difference as "what: model X, sql Y"; empty when the states are equal. */
    public static List<String> between(RelayState model, RelayState sql) {
        List<String> out = new ArrayList<>();
        if (model.equals(sql)) {
            return out;
        }
        TreeSet<String> ids = new TreeSet<>();
        model.rows().forEach(r -> ids.add(r.id()));
        sql.rows().forEach(r -> ids.add(r.id()));
        for (String id : ids) {
            Optional<OutboxRow> m = model.row(id);
            Optional<OutboxRow> s = sql.row(id);
            if (!m.equals(s)) {
                out.add("outbox row " + id + ": model " + m.map(Object::toString).orElse("absent") + ", sql "
                        + s.map(Object::toString).orElse("absent"));
            }
        }
        field(out, "last token", model.lastToken(), sql.lastToken());
        field(out, "business writes", model.businessWrites(), sql.businessWrites());
        field(out, "markers", model.consumer().markers(), sql.consumer().markers());
        field(out, "stock", model.consumer().stock(), sql.consumer().stock());
        field(out, "effects", model.consumer().effects(), sql.consumer().effects());
        field(out, "applied order", model.consumer().appliedOrder(), sql.consumer().appliedOrder());
        field(out, "pollers", model.pollers(), sql.pollers());
        field(out, "producer", model.producer(), sql.producer());
        field(out, "faults", model.faults(), sql.faults());
        field(out, "clock", model.clock(), sql.clock());
        field(out, "hazards", model.surroundings(), sql.surroundings());
        if (out.isEmpty()) {
            out.add("outbox row order: model " + model.rows() + ", sql " + sql.rows());
        }
        return out;
    }

    private static void field(List<String> out, String what, Object model, Object sql) {
        if (!Objects.equals(model, sql)) {
            out.add(what + ": model " + model + ", sql " + sql);
        }
    }
}
