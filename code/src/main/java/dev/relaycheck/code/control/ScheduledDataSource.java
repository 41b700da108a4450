package dev.relaycheck.code.control;

import net.ttddyy.dsproxy.ExecutionInfo;
import net.ttddyy.dsproxy.QueryInfo;
import net.ttddyy.dsproxy.listener.MethodExecutionContext;
import net.ttddyy.dsproxy.listener.MethodExecutionListener;
import net.ttddyy.dsproxy.listener.QueryExecutionListener;
import net.ttddyy.dsproxy.support.ProxyDataSourceBuilder;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The DataSource one participant gets. Its connections are real ones to the run's database, opened on demand and
 * recorded (so a crash can roll them back and close them), wrapped by datasource-proxy: before each statement,
 * commit and rollback the calling thread waits at a {@link Point} until the {@link Conductor} lets it go, and what the
 * statement did is written down for the trace.
 */
public final class ScheduledDataSource {

    /** Opens a real connection to the run's database. */
    @FunctionalInterface
    public interface Opener {
        Connection open() throws SQLException;
    }

    /** What the run wants to know of each point as it is passed. */
    public interface Observer {
        /** {@code actor} is about to run {@code sql}; the run may refuse it (a statement that reads the database's clock). */
        void sending(Actor actor, String sql);

        /** What the statement {@code actor} was let go at did: a row count, rows read, or what it threw. */
        void did(Actor actor, String result);
    }

    private ScheduledDataSource() {
    }

    public static DataSource of(Participant participant, Conductor conductor, Opener opener, Observer observer) {
        Points points = new Points(participant, conductor, observer);
        return ProxyDataSourceBuilder.create(new Physical(participant, conductor.lockWaits(), opener))
                .name(participant.name()).listener(points).methodListener(points).build();
    }

    /** The process died at or before this point: nothing of it runs against the database any more. */
    public static final class InstanceCrashed extends Error {
        public InstanceCrashed(String who) {
            super("relaycheck: " + who + " crashed here (its connections were rolled back and closed)");
        }
    }

    private static final class Points implements QueryExecutionListener, MethodExecutionListener {
        private final Participant participant;
        private final Conductor conductor;
        private final Observer observer;
        /** A commit whose acknowledgement relaycheck loses, on the thread that runs it. */
        private final ThreadLocal<Boolean> losing = ThreadLocal.withInitial(() -> false);

        Points(Participant participant, Conductor conductor, Observer observer) {
            this.participant = participant;
            this.conductor = conductor;
            this.observer = observer;
        }

        @Override
        public void beforeQuery(ExecutionInfo info, List<QueryInfo> queries) {
            String sql = queries.stream().map(QueryInfo::getQuery).collect(Collectors.joining("; "));
            try {
                gate(Pooled.real(info.getStatement().getConnection()), new Point(Point.Kind.STATEMENT, sql, null));
            } catch (SQLException e) {
                throw sneaky(e);
            }
        }

        @Override
        public void afterQuery(ExecutionInfo info, List<QueryInfo> queries) {
            Actor a = conductor.current(participant);
            if (!info.isSuccess()) {
                Throwable t = info.getThrowable();
                observer.did(a, "threw " + t.getClass().getSimpleName() + ": " + firstLine(t.getMessage()));
            } else if (info.getResult() instanceof Integer n) {
                observer.did(a, n + (n == 1 ? " row" : " rows"));
            } else if (info.getResult() instanceof int[] counts) {
                observer.did(a, java.util.Arrays.toString(counts) + " rows");
            } else if (info.getResult() instanceof Long n) {
                observer.did(a, n + (n == 1 ? " row" : " rows"));
            } else if (info.getResult() instanceof Boolean resultSet && !resultSet) { // execute(): its count is the statement's
                observer.did(a, rows(info.getStatement()));
            } else {
                observer.did(a, "");
            }
        }

        @Override
        public void beforeMethod(MethodExecutionContext ctx) {
            if (!(ctx.getTarget() instanceof Connection target)) {
                return;
            }
            Connection c = Pooled.real(target);
            String m = ctx.getMethod().getName();
            try {
                if (m.equals("commit") || m.equals("rollback")) {
                    gate(c, new Point(m.equals("commit") ? Point.Kind.COMMIT : Point.Kind.ROLLBACK, null, null));
                } else if (participant.crashed() && !m.equals("close") && !m.equals("isClosed")) {
                    throw new InstanceCrashed(participant.name());
                }
            } catch (SQLException e) {
                throw sneaky(e);
            }
        }

        @Override
        public void afterMethod(MethodExecutionContext ctx) {
            String m = ctx.getMethod().getName();
            if (!(ctx.getTarget() instanceof Connection target) || !(m.equals("commit") || m.equals("rollback"))) {
                return;
            }
            Actor a = conductor.current(participant);
            if (!m.equals("commit") || !losing.get()) { // its outcome, so the run tells it from a commit that waits
                Throwable t = ctx.getThrown();
                observer.did(a, t == null ? "" : "threw " + t.getClass().getSimpleName() + ": " + firstLine(t.getMessage()));
                return;
            }
            Connection c = Pooled.real(target);
            losing.set(false);
            if (ctx.getThrown() == null) {
                participant.broke(c);
                observer.did(a, "committed; the acknowledgement was lost");
                throw sneaky(new SQLException("relaycheck: the connection broke before the commit's acknowledgement arrived "
                        + "(the commit happened)", "08006"));
            }
        }

        private void gate(Connection physical, Point point) throws SQLException {
            if (participant.crashed()) {
                throw new InstanceCrashed(participant.name());
            }
            if (participant.isBroken(physical)) {
                throw new SQLException("relaycheck: this connection broke (a lost commit acknowledgement)", "08003");
            }
            Actor a = conductor.current(participant);
            if (point.sql() != null) {
                observer.sending(a, point.sql());
            }
            Permit p = conductor.arrive(a, point);
            switch (p) {
                case GO -> a.session = participant.session(physical);
                case LOSE_COMMIT -> {
                    a.session = participant.session(physical);
                    losing.set(true);
                }
                case CRASH -> throw new InstanceCrashed(participant.name());
                default -> throw new IllegalStateException(p + " at " + point);
            }
        }

        /** The update count of a statement run by {@code execute()}, as a library that checks it reads it. */
        private static String rows(java.sql.Statement st) {
            try {
                int n = st.getUpdateCount();
                return n < 0 ? "" : n + (n == 1 ? " row" : " rows");
            } catch (SQLException e) {
                return "";
            }
        }

        private static String firstLine(String s) {
            return s == null ? "" : s.lines().findFirst().orElse("");
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> RuntimeException sneaky(Throwable t) throws T {
        throw (T) t; // a listener may not declare SQLException; the JDBC method it stands before does
    }

    /**
     * A real connection as the relay holds it: closing it puts it back for the relay's next getConnection, as a
     * service's pool does (a new connection costs PostgreSQL a login).
     */
    private record Pooled(Participant participant, Connection real) implements java.lang.reflect.InvocationHandler {
        @Override
        public Object invoke(Object proxy, java.lang.reflect.Method m, Object[] args) throws Throwable {
            if (m.getName().equals("close") && m.getParameterCount() == 0) {
                participant.returned(real);
                return null;
            }
            if (m.getName().equals("isClosed") && m.getParameterCount() == 0 && participant.isBroken(real)) {
                return true;
            }
            try {
                return m.invoke(real, args);
            } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
            }
        }

        /** The real connection behind {@code c}. */
        static Connection real(Connection c) {
            return java.lang.reflect.Proxy.isProxyClass(c.getClass())
                    && java.lang.reflect.Proxy.getInvocationHandler(c) instanceof Pooled p ? p.real : c;
        }
    }

    /** Real connections, each recorded with its database session. */
    private record Physical(Participant participant, LockWaits lockWaits, Opener opener) implements ConnectionSource {
        @Override
        public Connection getConnection() throws SQLException {
            if (participant.crashed()) {
                throw new InstanceCrashed(participant.name());
            }
            Connection c = participant.reuse();
            if (c == null) {
                c = opener.open();
                participant.opened(c, lockWaits.sessionOf(c));
            }
            return (Connection) java.lang.reflect.Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[]{Connection.class},
                    new Pooled(participant, c));
        }
    }
}
