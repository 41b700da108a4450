package com.example.gruelbox.relaycheck;

import com.gruelbox.transactionoutbox.Invocation;
import com.gruelbox.transactionoutbox.ThrowingTransactionalSupplier;
import com.gruelbox.transactionoutbox.Transaction;
import com.gruelbox.transactionoutbox.TransactionManager;
import com.gruelbox.transactionoutbox.TransactionalInvocation;

import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * gruelbox's {@link TransactionManager} over the connection relaycheck hands the adapter: gruelbox's
 * "transactions" are relaycheck's. A unit of work runs on that connection; when it throws, the connection is
 * rolled back (what gruelbox's own managers do) and gruelbox goes on as it would, for instance recording a
 * failed attempt in a new unit of work; when it returns, nothing is committed: relaycheck commits after the
 * adapter call, so relaycheck's kills land between gruelbox's statements and its commit.
 */
final class CallerTransactionManager implements TransactionManager {
    private Connection connection;
    private CallerTransaction current;

    /** The connection the next units of work run on (set by the adapter before each call into gruelbox). */
    void use(Connection c) {
        this.connection = c;
    }

    /** The transaction the running unit of work belongs to (a handler writing through gruelbox's transaction). */
    Transaction current() {
        if (current == null) {
            throw new IllegalStateException("no gruelbox transaction is running");
        }
        return current;
    }

    @Override
    public <T, E extends Exception> T inTransactionReturnsThrows(ThrowingTransactionalSupplier<T, E> work) throws E {
        CallerTransaction tx = new CallerTransaction(connection);
        CallerTransaction outer = current;
        current = tx;
        try {
            T result = work.doWork(tx);
            tx.flushBatches();
            return result;
        } catch (Exception e) {
            rollback(e);
            throw sneaky(e);
        } finally {
            tx.closeBatches();
            current = outer;
        }
    }

    private void rollback(Exception cause) {
        try {
            connection.rollback();
        } catch (SQLException r) {
            cause.addSuppressed(r);
        }
    }

    @SuppressWarnings("unchecked")
    private static <E extends Exception> E sneaky(Exception e) throws E {
        throw (E) e;
    }

    @Override
    public TransactionalInvocation extractTransaction(Method method, Object[] args) {
        throw new UnsupportedOperationException("relaycheck enqueues through the persistor, not through schedule()");
    }

    @Override
    public Invocation injectTransaction(Invocation invocation, Transaction transaction) {
        return invocation;
    }

    /** One unit of work's view of the connection; batched inserts run before the work returns. */
    private static final class CallerTransaction implements Transaction {
        private final Connection connection;
        private final List<PreparedStatement> batches = new ArrayList<>();

        CallerTransaction(Connection connection) {
            this.connection = connection;
        }

        @Override
        public Connection connection() {
            return connection;
        }

        @Override
        public PreparedStatement prepareBatchStatement(String sql) {
            try {
                PreparedStatement ps = connection.prepareStatement(sql);
                batches.add(ps);
                return ps;
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void addPostCommitHook(Runnable runnable) {
            // relaycheck drives processing itself (flush, then processNow); nothing runs after its commit
        }

        void flushBatches() throws SQLException {
            for (PreparedStatement ps : batches) {
                ps.executeBatch();
            }
        }

        void closeBatches() {
            for (PreparedStatement ps : batches) {
                try {
                    ps.close();
                } catch (SQLException ignored) {
                    // closing a statement of a finished unit of work
                }
            }
        }
    }
}
