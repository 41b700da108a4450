package dev.relaycheck.jdbc.relay;

import dev.relaycheck.jdbc.adapter.RelayAdapter;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayLogic.TokenPolicy;
import dev.relaycheck.model.TailoredCorrectLogic;
import dev.relaycheck.model.Violation;
import dev.relaycheck.model.Witness;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a relay under test declares about itself (its adapter's optional hooks), and what follows for the
 * checks: the model logic it is compared with, the witnesses it can reach, and which invariants fail it.
 *
 * @param tokens          global token counter or per-row version
 * @param ownerFenced     fenced by owner, with the tokens relaycheck issues for it
 * @param deliversAndAcks delivery and acknowledgement in one transaction
 * @param promised        the invariants it promises (the others are checked and reported as "not promised")
 */
public record RelayTraits(TokenPolicy tokens, boolean ownerFenced, boolean deliversAndAcks, Set<Invariant> promised) {

    public static final RelayTraits REFERENCE = new RelayTraits(TokenPolicy.GLOBAL_COUNTER, false, false,
            EnumSet.allOf(Invariant.class));

    public RelayTraits {
        EnumSet<Invariant> p = EnumSet.noneOf(Invariant.class);
        p.addAll(promised);
        promised = java.util.Collections.unmodifiableSet(p); // enum order, never hash order
    }

    public static RelayTraits of(RelayAdapter a) {
        return new RelayTraits(a.tokenPolicy(), a.fencedByOwner(), a.deliversAndAcks(), a.promisedInvariants());
    }

    /**
     * The reference logic the relay is compared with: its token policy, its deliver-and-ack, and without the
     * head-of-aggregate rule when it does not promise per-aggregate order.
     */
    public RelayLogic modelLogic() {
        return TailoredCorrectLogic.of(tokens, deliversAndAcks, promised.contains(Invariant.AGGREGATE_ORDER));
    }

    /** A deliver-and-ack relay never redelivers an applied event, so it never shows a duplicate absorbed. */
    public Set<Witness> reachableWitnesses() {
        EnumSet<Witness> w = EnumSet.allOf(Witness.class);
        if (deliversAndAcks) {
            w.remove(Witness.DUPLICATE_ABSORBED);
        }
        return w;
    }

    public boolean fails(Invariant i) {
        return promised.contains(i);
    }

    /** The invariants it does not promise, in enum order. */
    public Set<Invariant> notPromised() {
        EnumSet<Invariant> n = EnumSet.allOf(Invariant.class);
        n.removeAll(promised);
        return n;
    }

    /** The violations that fail the relay (those of promised invariants), in order. */
    public List<Violation> failing(List<Violation> all) {
        return all.stream().filter(v -> fails(v.invariant())).toList();
    }

    /** The violations of invariants it does not promise, in order. */
    public List<Violation> unpromised(List<Violation> all) {
        return all.stream().filter(v -> !fails(v.invariant())).toList();
    }

    /**
     * EVENTUAL_DELIVERY's goal for this relay: exactly-once effects, or at least once for a relay that does not
     * promise EFFECT_AT_MOST_ONCE (its duplicates are reported under that invariant, not again as undelivered).
     */
    public boolean complete(dev.relaycheck.model.Scenario scenario, dev.relaycheck.model.RelayState s) {
        return dev.relaycheck.model.Invariants.isComplete(scenario, s, fails(Invariant.EFFECT_AT_MOST_ONCE));
    }

    /** One line for reports: what was checked and what does not apply. */
    public String describe() {
        String checked = promised.stream().map(Enum::name).collect(Collectors.joining(", "));
        Set<Invariant> not = notPromised();
        return "invariants checked: " + checked + (not.isEmpty() ? "" : "; not promised by this relay (checked, reported, never "
                + "a failure): " + not.stream().map(Enum::name).collect(Collectors.joining(", ")))
                + (tokens == TokenPolicy.PER_ROW_VERSION ? "; fenced by a per-row version" : "")
                + (ownerFenced ? "; fenced by owner (relaycheck issues its fencing tokens)" : "")
                + (deliversAndAcks ? "; delivers and acknowledges in one transaction" : "");
    }
}
