package dev.relaycheck.junit;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Optional;
import java.util.Set;

/**
 * The test a fixture runs in, found on the call stack (the frame whose method carries a JUnit test
 * annotation), and the command that runs it again. A fixture is deterministic (logical clock, no randomness,
 * the steps the test gives), so running the test again replays the same steps with the same outcomes.
 */
record TestReplay(String className, String method) {
    private static final Set<String> TEST_ANNOTATIONS = Set.of("Test", "ParameterizedTest", "RepeatedTest", "TestTemplate",
            "TestFactory", "CheckRelayLogic");

    static Optional<TestReplay> find() {
        return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).walk(frames -> frames
                .filter(f -> isTest(f.getDeclaringClass(), f.getMethodName()))
                .map(f -> new TestReplay(f.getDeclaringClass().getName(), f.getMethodName()))
                .findFirst());
    }

    private static boolean isTest(Class<?> type, String name) {
        for (Method m : type.getDeclaredMethods()) {
            if (m.getName().equals(name)) {
                for (Annotation a : m.getAnnotations()) {
                    if (TEST_ANNOTATIONS.contains(a.annotationType().getSimpleName())) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** A name for report files: the class's simple name and the method. */
    String fileName() {
        return className.substring(className.lastIndexOf('.') + 1) + "." + method;
    }

    /** {@code mvn test -Dtest=Class#method}: Surefire runs exactly this test again. */
    String line() {
        return "mvn test -Dtest=" + className.substring(className.lastIndexOf('.') + 1) + "#" + method;
    }
}
