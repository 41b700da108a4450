package com.example.gruelbox;

/**
 * The team's handler, as gruelbox invokes it: {@code outbox.schedule(StockHandler.class).reserve(...)} inside
 * the order transaction records the call; gruelbox's processing later calls {@link #reserve} with the same
 * arguments. What the handler does is the consumer's effect: here it takes the units off the stock of the SKU
 * ({@link StockEffect}), either through gruelbox's own transaction or in another system that commits on its own.
 */
public class StockHandler {
    private final StockEffect effect;

    public StockHandler(StockEffect effect) {
        this.effect = effect;
    }

    /** Takes {@code quantity} units of {@code sku} for order {@code orderId}. */
    public void reserve(String orderId, String sku, Integer seq, Integer quantity, String payload) throws Exception {
        effect.apply(orderId);
    }

    /** Where a reservation lands (the handler's side effect). */
    @FunctionalInterface
    public interface StockEffect {
        void apply(String orderId) throws Exception;
    }
}
