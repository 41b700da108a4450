package dev.relaycheck.model;

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

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The correct logic and the catalogue of broken variants, in DESIGN.md's numbering. */
public final class LogicCatalogue {
    private LogicCatalogue() {
    }

    public static RelayLogic correct() {
        return new CorrectRelayLogic();
    }

    /** The 14 broken variants, numbered 1..14 in this order. */
    public static List<RelayLogic> variants() {
        return List.of(
                new AckIgnoresToken(),
                new ReclaimKeepsToken(),
                new ClaimIgnoresLease(),
                new CheckThenActClaim(),
                new LeaseNeverExpires(),
                new AckBeforeDeliver(),
                new NoDedupMarker(),
                new MarkerBeforeEffect(),
                new EffectBeforeMarker(),
                new DedupByPayload(),
                new NewIdOnRetry(),
                new NoHeadOfAggregate(),
                new OutboxOutsideTransaction(),
                new ReleaseIgnoresToken());
    }

    /** The correct logic first, then every variant. */
    public static List<RelayLogic> all() {
        List<RelayLogic> all = new ArrayList<>();
        all.add(correct());
        all.addAll(variants());
        return List.copyOf(all);
    }

    public static Optional<RelayLogic> byId(String id) {
        return all().stream().filter(l -> l.id().equals(id)).findFirst();
    }
}
