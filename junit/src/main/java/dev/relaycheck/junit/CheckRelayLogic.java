package dev.relaycheck.junit;

import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.RelayLogic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test that model-checks a relay logic, in the style of Fray's {@code @ConcurrencyTest}: before the method
 * runs, relaycheck searches the logic exhaustively on the scenarios given; a violation, a logic fault, a bound
 * hit or an unreached witness fails the test with the trace and the replay line, and the report goes under
 * target/relaycheck/model/. The method may take a {@link ModelCheckResult} parameter to assert more.
 *
 * <pre>{@code
 * @CheckRelayLogic(value = MyRelayLogic.class, scenarios = {"double-claim", "src/test/resources/two-skus.scenario"})
 * void myLogicKeepsEveryInvariant() { }
 *
 * @CheckRelayLogic(catalogue = "ack-ignores-token", expectViolation = Invariant.STALE_ACK_REJECTED)
 * void theCheckCatchesAnUnfencedAck() { }   // a negative control: passes only if the violation is found
 * }</pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Test
@ExtendWith(RelaycheckExtension.class)
public @interface CheckRelayLogic {
    /** The logic class (public no-argument constructor); or give {@link #catalogue()}. */
    Class<? extends RelayLogic> value() default RelayLogic.class;

    /** A shipped logic by id instead: {@code correct} or a catalogue variant. */
    String catalogue() default "";

    /** Shipped scenario names or scenario files; none: every shipped scenario but soak. */
    String[] scenarios() default {};

    /** A negative control: the test passes only when some scenario breaks one of these (and then fails otherwise). */
    Invariant[] expectViolation() default {};

    /** Stops a search at this many distinct states; 0: what the heap holds. */
    int maxStates() default 0;
}
