package dev.relaycheck.junit;

import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.catalogue.LogicCatalogue;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A property a relay must have, as the invariants that say it, the shipped scenarios that exercise it, and the
 * catalogue mistakes that must break it (every catalogue variant expected to break one of its invariants).
 * Those mistakes are the property check's negative controls: it runs them too, and fails when one gets through,
 * since a check that cannot fail proves nothing.
 */
public enum Property {
    EACH_EFFECT_ONCE("delivers each effect exactly once (at most once, and eventually)",
            EnumSet.of(Invariant.EFFECT_AT_MOST_ONCE, Invariant.MARKER_IFF_EFFECT, Invariant.NO_LOST_EVENT, Invariant.EVENTUAL_DELIVERY),
            List.of("event-61-lost-ack", "crash-restart", "aggregate-order", "mixed")),
    AGGREGATE_ORDER("applies each aggregate's effects in commit order", EnumSet.of(Invariant.AGGREGATE_ORDER),
            List.of("aggregate-order", "mixed")),
    STALE_ACKS_REJECTED("rejects stale acknowledgements and releases and never grants two live leases",
            EnumSet.of(Invariant.STALE_ACK_REJECTED, Invariant.SINGLE_LIVE_LEASE),
            List.of("stale-ack-after-expiry", "double-claim", "mixed")),
    ATOMIC_PRODUCE("commits the business write and the outbox row together", EnumSet.of(Invariant.PRODUCE_ATOMIC),
            List.of("producer-atomicity"));

    private final String claim;
    private final Set<Invariant> invariants;
    private final List<String> scenarios;

    Property(String claim, Set<Invariant> invariants, List<String> scenarios) {
        this.claim = claim;
        this.invariants = invariants;
        this.scenarios = scenarios;
    }

    /** What a relay with this property does, in a sentence. */
    public String claim() {
        return claim;
    }

    public Set<Invariant> invariants() {
        return invariants;
    }

    /** The shipped scenarios the property is checked on. */
    public List<String> scenarios() {
        return scenarios;
    }

    /** The catalogue variants that must break it, in catalogue order. */
    public List<RelayLogic> negativeControls() {
        // the mistakes that exist as a logic and as an SQL edit alike (the first catalogue), so one list serves a
        // logic and a SQL relay; the lease, settle and timing hazards need scenarios and steps of their own that these properties do not run
        return LogicCatalogue.variants().stream()
                .filter(v -> v.expectedViolation().map(invariants::contains).orElse(false))
                .filter(v -> dev.relaycheck.jdbc.relay.SqlVariant.byId(v.id()).filter(sql -> !sql.needsItsOwnScenario()).isPresent())
                .toList();
    }

    /** Whether a violation of {@code i} is a violation of this property. */
    public boolean brokenBy(Invariant i) {
        return invariants.contains(i);
    }
}
