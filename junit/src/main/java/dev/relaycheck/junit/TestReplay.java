package dev.relaycheck.junit;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Optional;
import java.util.Set;

/**
 * The test a check runs in, and the command that runs it again from the team's project directory. A fixture is
 * deterministic (logical clock, no randomness, the steps the test gives), a model check exhaustive, a property
 * check's schedules seeded, so running the test again replays the same steps with the same outcomes. The test is
 * the one {@link RelaycheckExtension} runs a check for, else the frame on the call stack whose method carries a
 * JUnit test annotation.
 */
record TestReplay(String className, String method) {
    /** A property check with this seed runs it first ({@code -Drelaycheck.seed=N}, as a replay line gives it). */
    static final String SEED_PROPERTY = "relaycheck.seed";
    private static final Set<String> TEST_ANNOTATIONS = Set.of("Test", "ParameterizedTest", "RepeatedTest", "TestTemplate",
            "TestFactory", "CheckRelayLogic", "CheckSqlRelay", "CheckRelayCode");
    private static final ThreadLocal<TestReplay> RUNNING = new ThreadLocal<>();

    static Optional<TestReplay> find() {
        if (RUNNING.get() != null) {
            return Optional.of(RUNNING.get());
        }
        return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).walk(frames -> frames
                .filter(f -> isTest(f.getDeclaringClass(), f.getMethodName()))
                .map(f -> new TestReplay(f.getDeclaringClass().getName(), f.getMethodName()))
                .findFirst());
    }

    /** Runs {@code check} as part of this test (the extension's checks run before the method is on the stack). */
    <T> T run(java.util.function.Supplier<T> check) {
        TestReplay before = RUNNING.get();
        RUNNING.set(this);
        try {
            return check.get();
        } finally {
            RUNNING.set(before);
        }
    }

    /**
     * The replay lines of a failure: the test again when it runs in one, then the relaycheck CLI's line (which
     * needs a relaycheck checkout and every class the relay uses on its --classpath); the CLI's alone otherwise.
     */
    static String replayLines(String seedArgument, String cliLine) {
        return find().map(t -> "  replay: " + t.line() + seedArgument + "\n  relaycheck CLI: " + cliLine + "\n")
                .orElse("  replay: " + cliLine + "\n");
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

    /** {@code mvn test -Dtest=Class#method}: Surefire runs exactly this test again (a nested class's $ quoted for the shell). */
    String line() {
        String test = className.substring(className.lastIndexOf('.') + 1) + "#" + method;
        return "mvn test -Dtest=" + (test.contains("$") ? "'" + test + "'" : test);
    }
}
