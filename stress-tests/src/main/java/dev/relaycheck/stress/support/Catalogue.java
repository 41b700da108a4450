package dev.relaycheck.stress.support;

import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.catalogue.LogicCatalogue;

/** Looks up catalogue logic by id once per harness class (states are built millions of times). */
public final class Catalogue {
    private Catalogue() {
    }

    public static RelayLogic logic(String id) {
        return LogicCatalogue.byId(id).orElseThrow(() -> new IllegalArgumentException("no catalogue logic " + id));
    }

    public static RelayLogic correct() {
        return LogicCatalogue.correct();
    }
}
