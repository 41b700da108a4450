package dev.relaycheck.jdbc.adapter;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One SQL statement with named parameters ({@code :now}, {@code :token}) turned into JDBC's {@code ?}
 * placeholders. A colon inside a string literal, a quoted identifier or a comment, and PostgreSQL's
 * {@code ::} cast, are not parameters.
 *
 * @param jdbc       the statement with {@code ?} placeholders
 * @param parameters the parameter names, one per placeholder, in order
 * @param code       the statement without comments and string literals (what the wall-clock check reads)
 */
public record NamedSql(String jdbc, List<String> parameters, String code) {

    public static NamedSql parse(String sql) {
        StringBuilder out = new StringBuilder();
        StringBuilder code = new StringBuilder();
        List<String> names = new ArrayList<>();
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char ch = sql.charAt(i);
            if (ch == '\'' || ch == '"') {
                int end = sql.indexOf(ch, i + 1);
                end = end < 0 ? n : end + 1;
                out.append(sql, i, end);
                code.append(' ');
                i = end;
            } else if (ch == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                end = end < 0 ? n : end;
                i = end;
            } else if (ch == ':' && i + 1 < n && sql.charAt(i + 1) == ':') {
                out.append("::");
                code.append("::");
                i += 2;
            } else if (ch == ':' && i + 1 < n && isNameStart(sql.charAt(i + 1))) {
                int end = i + 1;
                while (end < n && isNamePart(sql.charAt(end))) {
                    end++;
                }
                names.add(sql.substring(i + 1, end));
                out.append('?');
                code.append('?');
                i = end;
            } else {
                out.append(ch);
                code.append(ch);
                i++;
            }
        }
        return new NamedSql(out.toString().strip(), List.copyOf(names), code.toString());
    }

    private static boolean isNameStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    private static boolean isNamePart(char c) {
        return isNameStart(c) || (c >= '0' && c <= '9');
    }

    /**
     * Binds every placeholder from {@code values}: an Integer as INT, a Long as BIGINT, a String as VARCHAR, a
     * null as an INT NULL (the only parameter that can be null is a lease's expiry).
     */
    public void bind(PreparedStatement ps, Map<String, Object> values) throws SQLException {
        for (int k = 0; k < parameters.size(); k++) {
            String name = parameters.get(k);
            if (!values.containsKey(name)) {
                throw new IllegalArgumentException("no value for :" + name);
            }
            Object v = values.get(name);
            if (v == null) {
                ps.setNull(k + 1, Types.INTEGER);
            } else if (v instanceof Integer x) {
                ps.setInt(k + 1, x);
            } else if (v instanceof Long x) {
                ps.setLong(k + 1, x);
            } else {
                ps.setString(k + 1, v.toString());
            }
        }
    }
}
