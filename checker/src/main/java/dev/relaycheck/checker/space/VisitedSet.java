package dev.relaycheck.checker.space;

/**
 * The fingerprints of every state the search has stored, split into shards by the fingerprint's high bits,
 * so that worker threads add to different shards at once without locks. About 11 to 23 bytes a state.
 */
public final class VisitedSet {
    private final FingerprintSet[] shards;

    public VisitedSet(int count) {
        shards = new FingerprintSet[count];
        for (int i = 0; i < count; i++) {
            shards[i] = new FingerprintSet();
        }
    }

    /** The shard of a fingerprint: its high 32 bits scaled to the shard count (a multiply, not a division). */
    public static int shardOf(long fingerprint, int count) {
        return (int) (((fingerprint >>> 32) * count) >>> 32);
    }

    public int shards() {
        return shards.length;
    }

    public FingerprintSet shard(int i) {
        return shards[i];
    }

    /** Whether a fingerprint is stored. Safe from many threads while nobody adds. */
    public boolean contains(long fingerprint) {
        return shards[shardOf(fingerprint, shards.length)].contains(fingerprint);
    }

    public long bytes() {
        long b = 0;
        for (FingerprintSet s : shards) {
            b += s.bytes();
        }
        return b;
    }
}
