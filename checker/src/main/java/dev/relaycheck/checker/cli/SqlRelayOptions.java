package dev.relaycheck.checker.cli;

import picocli.CommandLine.Option;

import java.util.List;

/**
 * {@code --sql}, {@code --adapter}, {@code --db} and {@code --controls}: the relay the SQL checks run, on which
 * databases, with or without the shipped broken variants ({@code sql} and {@code check}).
 */
final class SqlRelayOptions {
    @Option(names = "--sql", paramLabel = "FILE",
            description = "the relay under test for the SQL checks: a file of named SQL statements (see 'relaycheck sql template')")
    String sqlFile;

    @Option(names = "--adapter", paramLabel = "CLASS",
            description = "the relay under test for the SQL checks: a dev.relaycheck.jdbc.adapter.RelayAdapter on --classpath")
    String adapter;

    @Option(names = "--db", paramLabel = "DB",
            description = "the SQL checks' databases: h2 (embedded), postgres (a server relaycheck starts and stops) or a "
                    + "jdbc:postgresql:// URL; 'check' takes several, comma-separated (default h2,postgres), 'sql' one (default h2)")
    String db;

    @Option(names = "--controls", paramLabel = "yes|no",
            description = "also run the shipped broken SQL variants, which must be caught (default yes); no checks only your "
                    + "relay, faster (the variants prove relaycheck's SQL checks, which its own tests do)")
    String controls = "yes";

    /** The databases {@code --db} names, or {@code byDefault}. */
    List<String> dbs(List<String> byDefault) {
        return db == null ? byDefault : List.of(db.split(","));
    }

    /** {@code --controls}; a word other than yes or no is an IllegalArgumentException with a one-line message. */
    boolean controls() {
        return yesNo("--controls", controls);
    }

    /** An option's yes or no; null when it was not given; another word is an IllegalArgumentException. */
    static Boolean yesNo(String option, String word) {
        if (word == null) {
            return null;
        }
        return switch (word) {
            case "yes" -> true;
            case "no" -> false;
            default -> throw new IllegalArgumentException(option + " takes yes or no, got '" + word + "'");
        };
    }
}
