package dev.relaycheck.junit;

import dev.relaycheck.model.DecisionWatch;
import dev.relaycheck.model.LogicError;
import org.opentest4j.AssertionFailedError;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * A model check in a team's test JVM, guarded against the logic under test: the searches run on a thread of their
 * own, so that a decision that does not return within the limit fails the test as a LOGIC-ERROR with its question
 * and stack (the thread asked stays inside the logic; it is a daemon, so it does not keep the JVM up); and a
 * {@code System.exit} from inside a decision ends the JVM with one line and exit 6 instead of the code it asked for.
 */
final class LogicGuard {
    /** The exit code of a LOGIC-ERROR, as the CLI's. */
    private static final int LOGIC_ERROR = 6;

    private LogicGuard() {
    }

    static <T> T run(Duration limit, Supplier<T> work) {
        Duration before = DecisionWatch.limit();
        if (limit != null) {
            DecisionWatch.setLimit(limit);
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread hook = new Thread(() -> DecisionWatch.exitFromDecision().ifPresent(line -> {
            System.err.println("relaycheck: " + line);
            System.err.flush();
            Runtime.getRuntime().halt(LOGIC_ERROR);
        }), "relaycheck-exit-guard");
        Thread worker = new Thread(() -> {
            try {
                result.complete(work.get());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        }, "relaycheck-model-check");
        worker.setDaemon(true);
        Runtime.getRuntime().addShutdownHook(hook);
        try (AutoCloseable hangs = DecisionWatch.onHang(result::completeExceptionally)) {
            worker.start();
            return result.get();
        } catch (ExecutionException e) {
            throw rethrow(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the model check ran", e);
        } catch (Exception e) { // closing the handler throws nothing
            throw new IllegalStateException(e);
        } finally {
            DecisionWatch.setLimit(before);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is ending: the hook runs, as it should
            }
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof LogicError hung && hung.timedOut()) {
            throw new AssertionFailedError("relaycheck: " + hung.lineWithStack());
        }
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
