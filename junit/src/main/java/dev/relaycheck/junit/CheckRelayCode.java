package dev.relaycheck.junit;

import dev.relaycheck.code.RelayFactory;
import dev.relaycheck.model.Invariant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test that checks the team's relay by its own code: relaycheck builds instances with the {@link RelayFactory}
 * (the relay's own constructor and poll method), drives their statements one at a time through a DataSource of its
 * own, with crashes, lost commits and consumer failures, and judges every invariant on what happened. A failure
 * carries the trace, statement by statement, and the {@code mvn test} line that runs the same schedule again. The
 * method body runs afterwards.
 *
 * <pre>{@code
 * @CheckRelayCode(OutboxRelayCheck.class)
 * void theRelayIsSafe() { }
 *
 * @CheckRelayCode(value = OutboxRelayCheck.class, db = {"h2", "postgres"}, instanceIds = "reused",
 *                 expectViolation = Invariant.STALE_ACK_REJECTED)
 * void ownerFencingNeedsUniqueInstanceIds() { }
 * }</pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Test
@ExtendWith(RelaycheckExtension.class)
public @interface CheckRelayCode {
    /** The team's factory (a public class with a public no-argument constructor). */
    Class<? extends RelayFactory> value();

    /** The databases: h2, postgres (an embedded server relaycheck starts), or a jdbc:postgresql:// URL. */
    String[] db() default {"h2"};

    /** Seeded schedules per database. */
    int runs() default 40;

    /** The base seed: run i uses SplitMix64.derive(seed, i). */
    long seed() default 1;

    /** {@code unique}, or {@code reused}: an instance that starts in another's place keeps its id. */
    String instanceIds() default "unique";

    /** A negative control: the test passes only when the check fails naming one of these. */
    Invariant[] expectViolation() default {};
}
