package dev.relaycheck.model.catalogue;

import dev.relaycheck.model.CorrectRelayLogic;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.variants.AckBeforeDeliver;
import dev.relaycheck.model.variants.AckIgnoresToken;
import dev.relaycheck.model.variants.AppClockExpiry;
import dev.relaycheck.model.variants.BatchAckWholeBatch;
import dev.relaycheck.model.variants.CheckThenActClaim;
import dev.relaycheck.model.variants.ClaimIgnoresLease;
import dev.relaycheck.model.variants.CleanupDeletesInFlight;
import dev.relaycheck.model.variants.CursorBySequence;
import dev.relaycheck.model.variants.DedupByPayload;
import dev.relaycheck.model.variants.EffectBeforeMarker;
import dev.relaycheck.model.variants.IgnoresSettleResult;
import dev.relaycheck.model.variants.LeaseNeverExpires;
import dev.relaycheck.model.variants.MarkerBeforeEffect;
import dev.relaycheck.model.variants.NewIdOnRetry;
import dev.relaycheck.model.variants.NoDedupMarker;
import dev.relaycheck.model.variants.NoHeadOfAggregate;
import dev.relaycheck.model.variants.OutboxOutsideTransaction;
import dev.relaycheck.model.variants.PurgeAtAck;
import dev.relaycheck.model.variants.ReclaimKeepsToken;
import dev.relaycheck.model.variants.ReleaseIgnoresToken;
import dev.relaycheck.model.variants.RenewalByOwner;
import dev.relaycheck.model.variants.RenewalIgnoresExpiry;
import dev.relaycheck.model.variants.RetentionShorterThanRedelivery;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The correct logic and the catalogue of broken variants, in the numbering of docs/catalogue.md. */
public final class LogicCatalogue {
    private LogicCatalogue() {
    }

    public static RelayLogic correct() {
        return new CorrectRelayLogic();
    }

    /** The broken variants, numbered from 1 in this order (the first 14, then the lease, settle and timing mistakes, then the cleanup). */
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
                new ReleaseIgnoresToken(),
                // retention (hazard 1), which rows an ack touches (2), an ack's result ignored (6)
                new PurgeAtAck(),
                new RetentionShorterThanRedelivery(),
                new BatchAckWholeBatch(),
                new IgnoresSettleResult(),
                // lease renewal (3), clock skew (4), commit visibility (5)
                new RenewalByOwner(),
                new RenewalIgnoresExpiry(),
                new AppClockExpiry(),
                new CursorBySequence(),
                // the outbox cleanup job
                new CleanupDeletesInFlight());
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
