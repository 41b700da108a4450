package dev.relaycheck.model;

/**
 * The one pseudo-random generator relaycheck uses: SplitMix64 (Steele, Lea, Flood 2014), written out here
 * so every JVM produces the same sequence for the same seed. {@link java.util.Random} is avoided on purpose:
 * its algorithm is specified, but SplittableRandom's and ThreadLocalRandom's are not.
 */
public final class SplitMix64 {
    private long state;

    public SplitMix64(long seed) {
        this.state = seed;
    }

    public long nextLong() {
        return mix(state += 0x9E3779B97F4A7C15L);
    }

    /**
     * SplitMix64's finaliser: a bijection of 64-bit values in which every input bit affects every output
     * bit. The generator applies it to its counter; fingerprints use it to mix what they hash.
     */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Uniform in [0, bound), by rejection so that no value is favoured. */
    public int nextInt(int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive: " + bound);
        }
        long limit = Long.MAX_VALUE - (Long.MAX_VALUE % bound);
        long r;
        do {
            r = nextLong() >>> 1;
        } while (r >= limit);
        return (int) (r % bound);
    }

    /** Derives an independent seed for run number {@code index} of a seeded batch. */
    public static long derive(long seed, long index) {
        return new SplitMix64(seed ^ (index * 0xD1B54A32D192ED03L)).nextLong();
    }
}
