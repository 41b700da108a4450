package dev.relaycheck.junit;

import dev.relaycheck.model.RelayLogic;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

import java.lang.reflect.Method;

/**
 * Runs the model check a {@link CheckRelayLogic} method asks for, once per test: before the method body, so a
 * failure is the test's failure, and hands the {@link ModelCheckResult} to a parameter of that type.
 */
public final class RelaycheckExtension implements InvocationInterceptor, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RelaycheckExtension.class);

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call, ExtensionContext context)
            throws Throwable {
        JUnitVersion.require();
        TestReplay test = testOf(context);
        CheckRelayCode code = context.getRequiredTestMethod().getAnnotation(CheckRelayCode.class);
        if (code != null) {
            test.run(() -> {
                checkRelayCode(code);
                return null;
            });
            invocation.proceed();
            return;
        }
        CheckSqlRelay sql = context.getRequiredTestMethod().getAnnotation(CheckSqlRelay.class);
        if (sql != null) {
            test.run(() -> {
                checkSqlRelay(sql);
                return null;
            });
            invocation.proceed();
            return;
        }
        CheckRelayLogic spec = spec(context);
        test.run(() -> {
            ModelCheckResult result = resultFor(context);
            return spec.expectViolation().length > 0 ? result.assertViolates(spec.expectViolation()) : result.assertPassed();
        });
        invocation.proceed();
    }

    private static void checkRelayCode(CheckRelayCode spec) {
        RelayCodeChecker checker = RelayCodeChecker.of(spec.value()).db(spec.db()).runs(spec.runs()).seed(spec.seed()).instanceIds(spec.instanceIds());
        if (spec.expectViolation().length == 0) {
            checker.assertPasses();
        } else {
            checker.assertViolates(spec.expectViolation());
        }
    }

    private static void checkSqlRelay(CheckSqlRelay spec) {
        boolean file = !spec.sql().isBlank();
        if (file == (spec.adapter() != dev.relaycheck.jdbc.adapter.RelayAdapter.class)) {
            throw new IllegalArgumentException("@CheckSqlRelay names the relay once: adapter = CLASS or sql = \"FILE\"");
        }
        SqlRelayProperties relay = RelayProperties.assertThat(file ? RelayFixture.forRelayFile(java.nio.file.Path.of(spec.sql()))
                : RelayFixture.forAdapter(spec.adapter()));
        if (spec.expectViolation().length == 0) {
            for (Property p : spec.properties()) {
                relay.check(p);
            }
            return;
        }
        java.util.List<String> seen = new java.util.ArrayList<>();
        for (Property p : spec.properties()) {
            try {
                relay.check(p);
                seen.add(p + ": held");
            } catch (AssertionError e) {
                String m = String.valueOf(e.getMessage());
                for (dev.relaycheck.model.Invariant i : spec.expectViolation()) {
                    if (m.contains("VIOLATION " + i)) {
                        return; // the negative control is caught
                    }
                }
                seen.add(p + ": " + m.lines().findFirst().orElse(""));
            }
        }
        throw new org.opentest4j.AssertionFailedError("relaycheck: expected relay " + (file ? spec.sql() : spec.adapter().getName())
                + " to break one of "
                + java.util.List.of(spec.expectViolation()) + ", but no property check found it: " + seen);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == ModelCheckResult.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return testOf(context).run(() -> resultFor(context));
    }

    private static TestReplay testOf(ExtensionContext context) {
        return new TestReplay(context.getRequiredTestClass().getName(), context.getRequiredTestMethod().getName());
    }

    private static ModelCheckResult resultFor(ExtensionContext context) {
        return context.getStore(NAMESPACE).getOrComputeIfAbsent("result", k -> run(spec(context), context), ModelCheckResult.class);
    }

    private static CheckRelayLogic spec(ExtensionContext context) {
        return context.getRequiredTestMethod().getAnnotation(CheckRelayLogic.class);
    }

    private static ModelCheckResult run(CheckRelayLogic spec, ExtensionContext context) {
        boolean byClass = spec.value() != RelayLogic.class;
        if (byClass == !spec.catalogue().isEmpty()) {
            throw new IllegalArgumentException("@CheckRelayLogic needs exactly one of a logic class (value) and a catalogue id");
        }
        ModelChecker checker = byClass ? ModelChecker.of(spec.value()) : ModelChecker.ofCatalogue(spec.catalogue());
        checker.scenarios(spec.scenarios());
        Class<?> test = context.getRequiredTestClass();
        checker.reportName(test.getName().substring(test.getName().lastIndexOf('.') + 1) + "." + context.getRequiredTestMethod().getName());
        if (spec.maxStates() > 0) {
            checker.maxStates(spec.maxStates());
        }
        return checker.check();
    }
}
