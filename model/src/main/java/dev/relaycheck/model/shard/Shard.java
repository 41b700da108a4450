package dev.relaycheck.model.shard;

/**
 * One of {@code count} shards of a seeded search. A search numbers its schedules 0, 1, 2, ... in the order a whole
 * run takes them (walk {@code i} of {@code random}, the i-th schedule of a SQL conformance run); shard {@code index}
 * (from 1, as {@code --shard 2/4} reads) takes every schedule {@code i} with {@code i mod count = index - 1}.
 * Round-robin rather than blocks, so each shard gets as many long and short schedules as the others, and a failure a
 * whole run meets early is met early by one of the shards. Any seeded search splits this way: it asks
 * {@link #owns} (or walks {@link #nth}) and records what each of its schedules did, for {@code relaycheck merge}.
 */
public record Shard(int index, int count) {
    /** The whole run: one shard of one. */
    public static final Shard WHOLE = new Shard(1, 1);

    public Shard {
        if (count < 1 || index < 1 || index > count) {
            throw new IllegalArgumentException("a shard is I/N with 1 <= I <= N, got " + index + "/" + count);
        }
    }

    /** {@code I/N}; an IllegalArgumentException with one line for anything else. */
    public static Shard parse(String text) {
        String[] parts = text.strip().split("/", -1);
        try {
            if (parts.length == 2) {
                return new Shard(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
            }
        } catch (NumberFormatException e) {
            // said below
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--shard " + text + ": " + e.getMessage());
        }
        throw new IllegalArgumentException("--shard takes I/N (shard I of N, counted from 1, e.g. 2/4), got '" + text + "'");
    }

    /** Whether schedule {@code i} (numbered from 0) is this shard's. */
    public boolean owns(long i) {
        return i % count == index - 1;
    }

    /** The number of this shard's {@code k}-th schedule (k from 0). */
    public long nth(long k) {
        return k * count + index - 1;
    }

    public boolean whole() {
        return count == 1;
    }

    @Override
    public String toString() {
        return index + "/" + count;
    }
}
