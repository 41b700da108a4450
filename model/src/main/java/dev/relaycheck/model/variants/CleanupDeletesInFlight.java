package dev.relaycheck.model.variants;

import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Shipped;

/**
 * Catalogue: the outbox cleanup job deletes the rows a poller is working on as well as the delivered ones. Spring
 * Modulith 2.0.5's {@code JdbcEventPublicationRepositoryV2.deleteCompletedPublications()} runs {@code DELETE FROM
 * EVENT_PUBLICATION WHERE COMPLETION_DATE IS NOT NULL OR STATUS = 'PROCESSING'}: a publication whose listener is
 * running is gone, so if that listener fails (or its process dies) nothing is left to resubmit and the event is lost.
 * 2.1.0 deletes only {@code STATUS = 'COMPLETED'}, as the reference logic's cleanup does.
 */
@Shipped
public final class CleanupDeletesInFlight extends BrokenVariant {
    public CleanupDeletesInFlight() {
        super("cleanup-deletes-in-flight", "the outbox cleanup deletes leased (in-flight) rows as well as DELIVERED ones, "
                + "so a poller's failed or crashed attempt leaves nothing to retry and the event is lost (Spring Modulith "
                + "2.0.5: DELETE ... WHERE COMPLETION_DATE IS NOT NULL OR STATUS = 'PROCESSING')", Invariant.NO_LOST_EVENT);
    }

    @Override
    public boolean cleanupTakes(OutboxRow row, int now) {
        return super.cleanupTakes(row, now) || row.hasLease(); // PROCESSING: leased, live or lapsed
    }

    /** Without a cleanup job the purge never runs: the variant is the reference logic step for step. */
    @Override
    public boolean exercisedBy(Scenario scenario) {
        return scenario.cleanup();
    }
}
