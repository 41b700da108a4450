package com.example.gruelbox.relaycheck;

import dev.relaycheck.jdbc.adapter.Delivery;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * gruelbox with a handler whose effect lands in another system (a call to a stock service, a message broker, a
 * second database): the effect commits on its own, before gruelbox's delete commits. Everything else is
 * {@link GruelboxAdapter}; it promises the same, so relaycheck judges it by exactly-once effect.
 */
public class ExternalEffectGruelboxAdapter extends GruelboxAdapter {
    @Override
    protected void applyEffect(Delivery d, Connection gruelboxTransaction) throws SQLException {
        d.applyOutside();
    }
}
