package dev.relaycheck.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A logic relaycheck ships (the reference and the catalogue's variants), pure by review, so {@link CheckedLogic}
 * takes it as it is. Not inherited: a user's subclass of a shipped logic is checked like any other logic.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Shipped {
}
