package dev.relaycheck.checker.packed;

import dev.relaycheck.model.CorrectRelayLogic;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.variants.AckBeforeDeliver;
import dev.relaycheck.model.variants.AckIgnoresToken;
import dev.relaycheck.model.variants.CheckThenActClaim;
import dev.relaycheck.model.variants.ClaimIgnoresLease;
import dev.relaycheck.model.variants.DedupByPayload;
import dev.relaycheck.model.variants.EffectBeforeMarker;
import dev.relaycheck.model.variants.LeaseNeverExpires;
import dev.relaycheck.model.variants.MarkerBeforeEffect;
import dev.relaycheck.model.variants.NewIdOnRetry;
import dev.relaycheck.model.variants.NoDedupMarker;
import dev.relaycheck.model.variants.NoHeadOfAggregate;
import dev.relaycheck.model.variants.OutboxOutsideTransaction;
import dev.relaycheck.model.variants.ReclaimKeepsToken;
import dev.relaycheck.model.variants.ReleaseIgnoresToken;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The logics the packed engine knows: the reference logic, or the reference logic with one catalogue
 * mistake. A logic's decisions are Java methods over readable rows, which the packed engine cannot call, so it
 * re-implements each known one; {@code PackedAgreementTest} proves every re-implementation equal to its class
 * step by step. Matching is by exact class: a subclass (a user's logic) may change any decision, so it runs
 * on the readable model.
 */
public enum PackedLogic {
    CORRECT(CorrectRelayLogic.class),
    CLAIM_IGNORES_LEASE(ClaimIgnoresLease.class),
    NO_HEAD_OF_AGGREGATE(NoHeadOfAggregate.class),
    CHECK_THEN_ACT_CLAIM(CheckThenActClaim.class),
    RECLAIM_KEEPS_TOKEN(ReclaimKeepsToken.class),
    LEASE_NEVER_EXPIRES(LeaseNeverExpires.class),
    ACK_IGNORES_TOKEN(AckIgnoresToken.class),
    RELEASE_IGNORES_TOKEN(ReleaseIgnoresToken.class),
    ACK_BEFORE_DELIVER(AckBeforeDeliver.class),
    DEDUP_BY_PAYLOAD(DedupByPayload.class),
    NEW_ID_ON_RETRY(NewIdOnRetry.class),
    NO_DEDUP_MARKER(NoDedupMarker.class),
    MARKER_BEFORE_EFFECT(MarkerBeforeEffect.class),
    EFFECT_BEFORE_MARKER(EffectBeforeMarker.class),
    OUTBOX_OUTSIDE_TRANSACTION(OutboxOutsideTransaction.class);

    private static final Map<Class<?>, PackedLogic> BY_CLASS = byClass();

    private final Class<? extends RelayLogic> implementation;
    private final RelayLogic prototype;

    PackedLogic(Class<? extends RelayLogic> implementation) {
        this.implementation = implementation;
        try {
            this.prototype = implementation.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot instantiate " + implementation.getName(), e);
        }
    }

    /**
     * An instance of the logic this stands for: the packed engine asks it what the readable model asks the
     * logic (the lease it grants, hence the clock bound and the healing bound), so both engines size alike.
     */
    RelayLogic prototype() {
        return prototype;
    }

    /** The packed twin of {@code logic}, if the engine knows its exact class. */
    public static Optional<PackedLogic> of(RelayLogic logic) {
        return Optional.ofNullable(BY_CLASS.get(logic.getClass()));
    }

    private static Map<Class<?>, PackedLogic> byClass() {
        Map<Class<?>, PackedLogic> m = new HashMap<>(); // looked up only, never iterated
        for (PackedLogic p : values()) {
            m.put(p.implementation, p);
        }
        return Map.copyOf(m);
    }
}
