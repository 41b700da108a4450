package dev.relaycheck.code.control;

import javax.sql.DataSource;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;

/** A DataSource that only opens connections: no credentials of its own, no log writer, no wrapping. */
public interface ConnectionSource extends DataSource {
    @Override
    Connection getConnection() throws SQLException;

    @Override
    default Connection getConnection(String username, String password) throws SQLException {
        return getConnection();
    }

    @Override
    default PrintWriter getLogWriter() {
        return null;
    }

    @Override
    default void setLogWriter(PrintWriter out) {
    }

    @Override
    default void setLoginTimeout(int seconds) {
    }

    @Override
    default int getLoginTimeout() {
        return 0;
    }

    @Override
    default Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    default <T> T unwrap(Class<T> iface) throws SQLException {
        throw new SQLException("not a wrapper");
    }

    @Override
    default boolean isWrapperFor(Class<?> iface) {
        return false;
    }
}
