package dev.relaycheck.junit;

import dev.relaycheck.jdbc.adapter.RelayAdapter;
import dev.relaycheck.model.Invariant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test that checks a team's SQL relay (its {@link RelayAdapter}) for properties, as
 * {@link RelayProperties#assertThat(FixtureBuilder)} does: seeded schedules on H2 judged by the model's
 * invariants, and the catalogue mistakes that must break each property. A failure carries the steps and the
 * {@code relaycheck sql replay} line. The method body runs afterwards, for any further assertion.
 *
 * <pre>{@code
 * @CheckSqlRelay(adapter = ShopRelayAdapter.class, properties = {Property.EACH_EFFECT_ONCE, Property.STALE_ACKS_REJECTED})
 * void theShopRelayIsSafe() { }
 *
 * @CheckSqlRelay(adapter = UnfencedShopRelayAdapter.class, properties = Property.STALE_ACKS_REJECTED,
 *                expectViolation = Invariant.STALE_ACK_REJECTED)
 * void theUnfencedCopyIsCaught() { }
 * }</pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Test
@ExtendWith(RelaycheckExtension.class)
public @interface CheckSqlRelay {
    /** The team's adapter class (public no-argument constructor). */
    Class<? extends RelayAdapter> adapter();

    /** The properties to check (default: all of them). */
    Property[] properties() default {Property.EACH_EFFECT_ONCE, Property.AGGREGATE_ORDER, Property.STALE_ACKS_REJECTED,
            Property.ATOMIC_PRODUCE};

    /** A negative control: the test passes only when a property check fails naming one of these. */
    Invariant[] expectViolation() default {};
}
