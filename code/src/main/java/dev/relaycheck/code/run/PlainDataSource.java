package dev.relaycheck.code.run;

import dev.relaycheck.code.control.ConnectionSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/** The run's database without scheduling points: for the team's schema migrations, before any actor starts. */
record PlainDataSource(String url) implements ConnectionSource {
    @Override
    public Connection getConnection() throws SQLException {
        return DriverManager.getConnection(url);
    }
}
