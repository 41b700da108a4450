package dev.relaycheck.jdbc.relay;

import dev.relaycheck.jdbc.adapter.OwnerFencedTokens;
import dev.relaycheck.jdbc.adapter.RelayAdapter;

import java.util.function.Supplier;

/**
 * The relay the SQL checks drive: where its adapters come from (one per poller), what relaycheck's own side
 * does around it, and whether it is expected to pass (a user's relay, the reference) or to be caught (a
 * shipped broken variant).
 *
 * @param spec          how to name it again (replay lines, the crash-kill child)
 * @param id            the name reports use: {@code correct}, a catalogue id, or the user's class or file
 * @param expectCorrect true for a relay that must pass, false for a negative control
 * @param shape         relaycheck's consumer, producer and poller order around it
 * @param adapters      a fresh adapter per call
 */
public record RelayUnderTest(RelaySpec spec, String id, boolean expectCorrect, SqlShape shape, Supplier<RelayAdapter> adapters) {

    /** A fresh adapter; a relay fenced by owner gets the tokens relaycheck issues for it ({@link OwnerFencedTokens}). */
    public RelayAdapter newAdapter() {
        return OwnerFencedTokens.around(adapters.get());
    }

    /** What its adapter declares (token policy, fenced by owner, deliver-and-ack, promised invariants). */
    public RelayTraits traits() {
        return RelayTraits.of(newAdapter());
    }

    /** A shipped variant (or the reference relay) with the reference file's claim in the given form. */
    public static RelayUnderTest of(SqlVariant v, ClaimForm form) {
        return new RelaySpec.Shipped(v, form).resolve();
    }

    public static RelayUnderTest of(SqlVariant v) {
        return of(v, ClaimForm.SKIP_LOCKED);
    }
}
