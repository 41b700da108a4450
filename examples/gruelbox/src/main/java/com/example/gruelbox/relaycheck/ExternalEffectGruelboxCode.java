package com.example.gruelbox.relaycheck;

import com.gruelbox.transactionoutbox.ThreadLocalContextTransactionManager;

import javax.sql.DataSource;
import java.sql.Connection;

/**
 * The same outbox whose handler's effect commits on its own connection (another system, or the same database outside
 * gruelbox's transaction): applied, and then the entry's delete may never commit.
 */
public class ExternalEffectGruelboxCode extends GruelboxCode {
    @Override
    protected void reserve(ThreadLocalContextTransactionManager tm, DataSource db, String orderId) throws Exception {
        try (Connection c = db.getConnection()) {
            insert(c, orderId);
        }
    }
}
