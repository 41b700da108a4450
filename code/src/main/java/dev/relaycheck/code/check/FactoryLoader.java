package dev.relaycheck.code.check;

import dev.relaycheck.code.RelayFactory;
import dev.relaycheck.model.UserClassLoader;

/**
 * The team's {@link RelayFactory}, by class name, from its class path; what is wrong with it is one line. Each run gets
 * a new instance, so a factory may keep what it builds for one run (the producer's outbox) in its fields.
 */
public final class FactoryLoader {
    private FactoryLoader() {
    }

    public static java.util.function.Supplier<RelayFactory> load(String className, String classpath) {
        ClassLoader loader = UserClassLoader.orParent(classpath, FactoryLoader.class.getClassLoader());
        Class<?> c;
        try {
            c = Class.forName(className, true, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException("cannot load relay factory " + className + (classpath == null || classpath.isBlank()
                    ? " (no --classpath given)" : " from " + classpath) + ": " + e);
        }
        if (!RelayFactory.class.isAssignableFrom(c)) {
            throw new IllegalArgumentException(className + " is not a " + RelayFactory.class.getName());
        }
        @SuppressWarnings("unchecked")
        java.util.function.Supplier<RelayFactory> factories = of((Class<? extends RelayFactory>) c);
        factories.get(); // a constructor that cannot run is a usage error now, not in the middle of a check
        return factories;
    }

    /** New instances of {@code c}, one a run. */
    public static java.util.function.Supplier<RelayFactory> of(Class<? extends RelayFactory> c) {
        return () -> {
            try {
                return c.getDeclaredConstructor().newInstance();
            } catch (NoSuchMethodException e) {
                throw new IllegalArgumentException(c.getName() + " needs a public no-argument constructor");
            } catch (ReflectiveOperationException | RuntimeException e) {
                Throwable cause = e instanceof java.lang.reflect.InvocationTargetException i ? i.getCause() : e;
                throw new IllegalArgumentException("cannot create " + c.getName() + ": " + cause);
            }
        };
    }
}
