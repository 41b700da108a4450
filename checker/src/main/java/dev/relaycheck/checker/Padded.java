package dev.relaycheck.checker;

/**
 * A base class whose only fields are 64 bytes of padding. HotSpot lays a superclass's fields out first, so
 * a subclass's own fields start a cache line away from whatever object precedes it in memory. The search's
 * per-thread objects (a worker's result buffers, its scratch, a shard of the visited set) write counters
 * millions of times a second while another thread works beside them; without this, two of them sharing a
 * cache line (the garbage collector packs objects together) made two threads slower than one.
 */
public abstract class Padded {
    @SuppressWarnings("unused")
    private long p0, p1, p2, p3, p4, p5, p6, p7;
}
