package dev.relaycheck.checker.space;

import dev.relaycheck.model.ConsumerState;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Held;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.PollerState;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.SplitMix64;
import dev.relaycheck.model.Surroundings;

import java.util.List;
import java.util.Map;

/**
 * A 64-bit fingerprint of a state, computed by walking the readable state directly (no packing, no
 * allocation). Every input is specified by the JDK (String.hashCode, ordinals, ints), so the same state has
 * the same fingerprint on every JVM; record and enum hashCodes are avoided because enum hashCodes are
 * identity hashes that change from run to run.
 */
public final class Fingerprint {
    private Fingerprint() {
    }

    public static long of(RelayState s) {
        long h = 0x2545F4914F6CDD1DL;
        h = add(h, s.clock());
        h = add(h, s.lastToken());
        h = add(h, s.rows().size());
        for (OutboxRow r : s.rows()) {
            h = row(h, r);
        }
        h = add(h, s.businessWrites().size());
        for (String b : s.businessWrites()) {
            h = add(h, str(b));
        }
        h = consumer(h, s.consumer());
        for (PollerState p : s.pollers()) {
            h = add(h, p.phase().ordinal());
            h = add(h, p.batch().size());
            for (Held held : p.batch()) {
                h = add(h, str(held.eventId()));
                h = add(h, held.token());
            }
            h = add(h, p.readSet().size());
            for (String id : p.readSet()) {
                h = add(h, str(id));
            }
        }
        h = add(h, s.producer().next());
        h = add(h, s.producer().businessOnly() ? 1 : 0);
        h = add(h, s.faults().crashes());
        h = add(h, s.faults().lostAcks());
        h = add(h, s.faults().deliverFails());
        h = add(h, s.faults().produceFails());
        if (!s.surroundings().isNone()) { // only the lease, settle and timing scenarios: every other state's fingerprint is what it was
            h = hazards(h, s.surroundings());
        }
        return SplitMix64.mix(h);
    }

    private static long row(long h, OutboxRow r) {
        h = add(h, str(r.id()));
        h = add(h, r.status().ordinal());
        if (r.lease() == null) {
            h = add(h, -1);
        } else {
            h = add(h, str(r.lease().owner()));
            h = add(h, r.lease().token());
            h = add(h, r.lease().expiry());
            if (r.lease().clockSkew() != 0) { // only scenarios with clock skew: every other state hashes as it did
                h = add(h, r.lease().clockSkew());
            }
        }
        if (r.version() != 0) { // per-row versions only; a global-counter state hashes as before
            h = add(h, r.version());
        }
        return h;
    }

    private static long hazards(long h, Surroundings z) {
        h = add(h, 0x4A5A4D);
        h = add(h, z.renewals());
        h = add(h, z.skews().size());
        for (int skew : z.skews()) {
            h = add(h, skew);
        }
        h = add(h, z.inFlight().size());
        for (Event e : z.inFlight()) {
            h = add(h, str(e.id()));
        }
        h = add(h, z.cursor());
        h = add(h, z.passedOver().size());
        for (String id : z.passedOver()) {
            h = add(h, str(id));
        }
        if (!z.cleanedUp().isEmpty()) { // only scenarios with an outbox cleanup: the others hash as they did
            h = add(h, z.cleanedUp().size());
            for (Map.Entry<String, String> e : z.cleanedUp().entrySet()) {
                h = add(h, str(e.getKey()));
                h = add(h, str(e.getValue()));
            }
        }
        return h;
    }

    private static long consumer(long h, ConsumerState c) {
        h = add(h, c.markers().size());
        for (Map.Entry<String, String> e : c.markers().entrySet()) {
            h = add(h, str(e.getKey()));
            h = add(h, str(e.getValue()));
        }
        h = add(h, c.stock().size());
        for (Map.Entry<String, Integer> e : c.stock().entrySet()) {
            h = add(h, str(e.getKey()));
            h = add(h, e.getValue());
        }
        h = add(h, c.effects().size());
        for (Map.Entry<String, Integer> e : c.effects().entrySet()) {
            h = add(h, str(e.getKey()));
            h = add(h, e.getValue());
        }
        h = add(h, c.appliedOrder().size());
        for (Map.Entry<String, List<Integer>> e : c.appliedOrder().entrySet()) {
            h = add(h, str(e.getKey()));
            h = add(h, e.getValue().size());
            for (int seq : e.getValue()) {
                h = add(h, seq);
            }
        }
        // dated markers and purges only where a retention policy or a late redelivery needs them: two states whose
        // markers were written at different ticks are purged at different ticks, so they are two states
        if (!c.markerWrittenAt().isEmpty() || !c.purged().isEmpty()) {
            h = add(h, 0x44415445);
            for (Map.Entry<String, Integer> e : c.markerWrittenAt().entrySet()) {
                h = add(h, str(e.getKey()));
                h = add(h, e.getValue());
            }
            h = add(h, c.purged().size());
            for (String id : c.purged()) {
                h = add(h, str(id));
            }
        }
        return h;
    }

    private static long str(String s) {
        return ((long) s.hashCode() << 32) ^ s.length();
    }

    private static long add(long h, long v) {
        return (h ^ SplitMix64.mix(v + 0x9E3779B97F4A7C15L)) * 0x100000001B3L;
    }

    /**
     * The chance that two of {@code n} distinct states shared a fingerprint, assuming uniform 64-bit
     * fingerprints: about n(n-1)/2 / 2^64 (TLC prints the same estimate).
     */
    public static double collisionProbability(long n) {
        return (double) n * (double) (n - 1) / 2.0 / Math.pow(2, 64);
    }

    /**
     * A packed state's fingerprint: each word times its own odd constant, rotated apart, summed, then mixed by
     * SplitMix64's finaliser. The products are independent, so they cost one multiply's latency, not one per
     * word; and a one-word state's fingerprint is a bijection of it, hence exact.
     */
    public static long ofWords(long[] words, int at, int stride) {
        long h = 0;
        for (int i = 0; i < stride; i++) {
            h += Long.rotateLeft(words[at + i] * ODD[i & 7], 17 * i);
        }
        return SplitMix64.mix(h);
    }

    private static final long[] ODD = {0x9E3779B97F4A7C15L, 0xC2B2AE3D27D4EB4FL, 0x165667B19E3779F9L,
            0xD6E8FEB86659FD93L, 0xFF51AFD7ED558CCDL, 0xC4CEB9FE1A85EC53L, 0xA0761D6478BD642FL, 0xE7037ED1A0B428DBL};
}
