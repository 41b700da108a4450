/**
 * The jcstress curriculum: one hazard a file, numbered by family ({@code Lease_}, {@code Relay_}, {@code Order_},
 * {@code Produce_}), each file a shared race (a base class in the file or in {@code support}) and one
 * {@code @JCStressTest} per target: the correct logic, each catalogue variant that the hazard exposes, a broken
 * store where one exists, and {@code User} (the user's logic or store, loaded in the fork from the jar that
 * {@code relaycheck stress --classpath} names).
 *
 * <p>Each file's {@code World} (events, stock, lease length) builds every target's subject: a catalogue logic in
 * the shipped store ({@code WORLD.with(logic)}), the correct logic in a broken store
 * ({@code WORLD.in(logic, Store::new)}) or the user's target ({@code WORLD.ofUser()}); the race's set-up runs once,
 * in the shared base class's one constructor.
 *
 * <p>Why every target repeats its one-line {@code @Actor} and {@code @Arbiter} methods: jcstress's annotation
 * processor reads the actors of a test from the annotated class's own members only
 * ({@code JCStressTestProcessor} walks {@code getEnclosedElements()}, not the superclass), so inherited actors are
 * not seen. The work therefore lives in the shared race's methods, and each target's actors are one call each.
 */
package dev.relaycheck.stress;
