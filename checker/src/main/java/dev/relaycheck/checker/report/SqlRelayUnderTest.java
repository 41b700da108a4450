package dev.relaycheck.checker.report;

import dev.relaycheck.jdbc.relay.RelayTraits;
import dev.relaycheck.model.Invariant;

import java.util.List;

/**
 * A relay the user handed the SQL checks of {@code check} ({@code --adapter CLASS} or {@code --sql FILE}): the
 * report is about it as much as about the logic under test, so it names it and says which invariants it was
 * held to and which it does not promise (checked, reported, never a failure).
 *
 * @param id          the relay's id as the SQL checks name it (the adapter class, the relay file)
 * @param checked     the invariants it promises, which fail it, in enum order
 * @param notPromised the invariants it does not promise, in enum order
 * @param traits      {@link RelayTraits#describe()}: the same line the {@code sql} command prints
 */
public record SqlRelayUnderTest(String id, List<Invariant> checked, List<Invariant> notPromised, String traits) {

    public SqlRelayUnderTest {
        checked = List.copyOf(checked);
        notPromised = List.copyOf(notPromised);
    }

    public static SqlRelayUnderTest of(String id, RelayTraits traits) {
        return new SqlRelayUnderTest(id, List.copyOf(traits.promised()), List.copyOf(traits.notPromised()), traits.describe());
    }

    /** One line for the report pages. */
    public String line() {
        return "SQL relay under test: " + id + ": " + traits;
    }
}
