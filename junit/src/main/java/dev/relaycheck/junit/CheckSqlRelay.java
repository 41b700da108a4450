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
 * A test that checks a team's SQL relay (its {@link RelayAdapter}, or its relay file) for properties, as
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
 *
 * @CheckSqlRelay(sql = "src/main/sql/relay.sql", properties = Property.EACH_EFFECT_ONCE)
 * void theRelayFileDeliversEachEffectOnce() { }
 * }</pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Test
@ExtendWith(RelaycheckExtension.class)
public @interface CheckSqlRelay {
    /** The team's adapter class (public no-argument constructor); give this or {@link #sql()}. */
    Class<? extends RelayAdapter> adapter() default RelayAdapter.class;

    /**
     * The team's relay file ({@code relaycheck sql template}), a path relative to the working directory (the module's,
     * under Maven); give this or {@link #adapter()}. Its {@code -- option:} lines are its declarations, as an
     * adapter's optional methods are.
     */
    String sql() default "";

    /** The properties to check (default: all of them). */
    Property[] properties() default {Property.EACH_EFFECT_ONCE, Property.AGGREGATE_ORDER, Property.STALE_ACKS_REJECTED,
            Property.ATOMIC_PRODUCE};

    /** A negative control: the test passes only when a property check fails naming one of these. */
    Invariant[] expectViolation() default {};
}
