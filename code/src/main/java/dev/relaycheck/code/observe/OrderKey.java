package dev.relaycheck.code.observe;

import java.math.BigDecimal;

/** An {@code order_key} as the outbox query gives it: a number, or text (a timestamp reads as ISO text, in order). */
public record OrderKey(BigDecimal number, String text) implements Comparable<OrderKey> {

    public static OrderKey of(Object value) {
        if (value instanceof Number n) {
            return new OrderKey(new BigDecimal(n.toString()), null);
        }
        return new OrderKey(null, value == null ? "" : value.toString());
    }

    @Override
    public int compareTo(OrderKey o) {
        if (number != null && o.number != null) {
            return number.compareTo(o.number);
        }
        return toString().compareTo(o.toString());
    }

    @Override
    public String toString() {
        return number != null ? number.toPlainString() : text;
    }
}
