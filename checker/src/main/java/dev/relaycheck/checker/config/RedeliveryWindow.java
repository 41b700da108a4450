package dev.relaycheck.checker.config;

import dev.relaycheck.model.Invariant;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@code relaycheck config}'s question: can a redelivery outlive the consumer's dedup
 * marker? The worst case the settings allow, built as a timeline: the first delivery commits its marker at
 * once (t=0) and its acknowledgement is lost; so is every later attempt's, so the row is retried to the last
 * attempt; attempt k+1 claims when attempt k's lease has expired and the backoff before it has passed; the last
 * attempt's poller works its whole lease, then stalls the longest pause allowed before its consumer commits
 * (a poller does not re-check its lease before it delivers). That commit is the last redelivery. The marker
 * is purged at the retention; if that is not after the last redelivery, the redelivery finds no marker and
 * applies the effect again (EFFECT_AT_MOST_ONCE). The model checks the same hazard in the scenario
 * {@code marker-retention}; this checks a real relay's numbers.
 *
 * @param lease       lease length
 * @param maxAttempts deliveries of one row at most, the first included
 * @param backoff     wait before each retry, after the previous lease expired
 * @param retention   how long the consumer keeps a marker
 * @param maxStall    the longest a poller may pause between claiming and committing, beyond its lease
 */
public record RedeliveryWindow(long lease, int maxAttempts, Backoff backoff, long retention, long maxStall) {

    /** Attempts at most: past this the timeline would be unreadable, and no relay retries a row this often. */
    public static final int MOST_ATTEMPTS = 1_000;

    public RedeliveryWindow {
        if (lease <= 0) {
            throw new IllegalArgumentException("--lease must be longer than 0");
        }
        if (maxAttempts < 1 || maxAttempts > MOST_ATTEMPTS) {
            throw new IllegalArgumentException("--max-attempts must be between 1 and " + MOST_ATTEMPTS + ", got " + maxAttempts);
        }
    }

    /** One instant of the worst case. */
    public record Moment(long at, String what) {
    }

    /**
     * The answer: the timeline (in time order); when the redelivery it is about commits at the latest (the first
     * that outlives the marker, or the last of all when none does); whether the marker outlives every redelivery.
     */
    public record Answer(List<Moment> timeline, long redeliveryAt, boolean safe) {
        public Answer {
            timeline = List.copyOf(timeline);
        }
    }

    public Answer evaluate() {
        try {
            return build();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("the settings make the redelivery window longer than this tool can count "
                    + "(check --backoff and --max-attempts)");
        }
    }

    private Answer build() {
        List<Moment> t = new ArrayList<>();
        t.add(new Moment(0, "attempt 1 claims the row (lease to " + f(lease) + "); its consumer commits at once: marker written"));
        t.add(new Moment(0, "attempt 1's acknowledgement is lost: the row stays PENDING under its lease"));
        t.add(new Moment(retention, "the consumer's cleanup purges the marker (retention " + f(retention) + ")"));
        long claim = 0;
        long window = 0; // the latest instant any redelivery can commit
        boolean safe = true;
        for (int k = 2; k <= maxAttempts; k++) {
            long expired = Math.addExact(claim, lease);
            long wait = backoff.before(k - 1);
            claim = Math.addExact(expired, wait);
            long latest = Math.addExact(expired(claim), maxStall);
            window = latest;
            t.add(new Moment(expired, "attempt " + (k - 1) + "'s lease expires"));
            t.add(new Moment(claim, "attempt " + k + " claims the row" + (wait > 0 ? " after a backoff of " + f(wait) : "")
                    + " (lease to " + f(expired(claim)) + ")"));
            if (latest >= retention) { // this attempt can commit after the purge: the witness ends here
                t.add(new Moment(latest, "attempt " + k + "'s poller works its whole lease, stalls " + f(maxStall)
                        + " and commits its delivery: the marker is gone, so the effect is applied again ("
                        + Invariant.EFFECT_AT_MOST_ONCE.name() + ")"));
                safe = false;
                break;
            }
            t.add(new Moment(k == maxAttempts ? latest : claim, k == maxAttempts
                    ? "attempt " + k + " (the last), having worked its whole lease and stalled " + f(maxStall)
                    + ", commits: the last redelivery, answered DUPLICATE by the marker"
                    : "attempt " + k + "'s consumer answers DUPLICATE and its acknowledgement is lost too"));
        }
        if (maxAttempts == 1) {
            t.add(new Moment(lease, "attempt 1's lease expires; with --max-attempts 1 the row is never redelivered"));
        }
        if (!safe) {
            long end = window;
            t.removeIf(m -> m.at() > end); // nothing after the duplicate effect is part of the story
        }
        return new Answer(sorted(t), window, safe);
    }

    private long expired(long claimedAt) {
        return Math.addExact(claimedAt, lease);
    }

    /** In time order; equal instants keep the story's order (the purge before a redelivery at the same instant). */
    private static List<Moment> sorted(List<Moment> t) {
        List<Moment> s = new ArrayList<>(t);
        s.sort(Comparator.comparingLong(Moment::at));
        return s;
    }

    private static String f(long ms) {
        return Durations.format(ms);
    }
}
