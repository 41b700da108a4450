package dev.relaycheck.code.check;

import dev.relaycheck.code.RelayFactory;
import dev.relaycheck.model.UserClassLoader;

/** The team's {@link RelayFactory}, by class name, from its class path; what is wrong with it is one line. */
public final class FactoryLoader {
    private FactoryLoader() {
    }

    public static RelayFactory load(String className, String classpath) {
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
        try {
            return (RelayFactory) c.getDeclaredConstructor().newInstance();
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(className + " needs a public no-argument constructor");
        } catch (ReflectiveOperationException | RuntimeException e) {
            Throwable cause = e instanceof java.lang.reflect.InvocationTargetException i ? i.getCause() : e;
            throw new IllegalArgumentException("cannot create " + className + ": " + cause);
        }
    }
}
