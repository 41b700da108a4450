package dev.relaycheck.lincheck;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The one list of Lincheck checks; the main entry point and the JUnit tests both run exactly these. */
public final class Checks {
    private Checks() {
    }

    public static List<LincheckCheck> all() {
        return List.of(
                new LinearizabilityCheck(LinearizabilityCheck.Mode.MODEL_CHECKING),
                new LinearizabilityCheck(LinearizabilityCheck.Mode.STRESS),
                new RelayProtocolCheck());
    }

    public static Optional<LincheckCheck> byId(String id) {
        return all().stream().filter(c -> c.id().equals(id)).findFirst();
    }

    /** One (check, target) pair to run. */
    public record Planned(LincheckCheck check, Target target) {
        public String name() {
            return check.id() + "/" + target.id();
        }
    }

    /**
     * The pairs a selection names: blank for all; otherwise comma-separated {@code CHECK} or
     * {@code CHECK/TARGET}. Throws IllegalArgumentException with one clear line for an unknown name.
     */
    public static List<Planned> select(String selection) {
        List<Planned> out = new ArrayList<>();
        String s = selection == null ? "" : selection.strip();
        if (s.isEmpty()) {
            all().forEach(c -> c.targets().forEach(t -> out.add(new Planned(c, t))));
            return out;
        }
        for (String part : s.split(",")) {
            String[] checkAndTarget = part.strip().split("/", 2);
            LincheckCheck check = byId(checkAndTarget[0]).orElseThrow(() -> new IllegalArgumentException(
                    "unknown check '" + checkAndTarget[0] + "'; known: " + ids()));
            if (checkAndTarget.length == 1) {
                check.targets().forEach(t -> out.add(new Planned(check, t)));
                continue;
            }
            Target target = check.targets().stream().filter(t -> t.id().equals(checkAndTarget[1])).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("check " + check.id() + " has no target '"
                            + checkAndTarget[1] + "'; its targets: " + check.targets().stream().map(Target::id).toList()));
            out.add(new Planned(check, target));
        }
        return out;
    }

    /** Every check named in {@code selection} (blank: all) planned on the user's target alone. */
    public static List<Planned> selectForUser(String selection, Target user) {
        List<Planned> out = new ArrayList<>();
        String s = selection == null ? "" : selection.strip();
        List<LincheckCheck> checks = new ArrayList<>();
        if (s.isEmpty()) {
            checks.addAll(all());
        } else {
            for (String part : s.split(",")) {
                String id = part.strip();
                checks.add(byId(id).orElseThrow(() -> new IllegalArgumentException("unknown check '" + id + "'; known: " + ids())));
            }
        }
        checks.forEach(c -> out.add(new Planned(c, user)));
        return out;
    }

    private static List<String> ids() {
        return all().stream().map(LincheckCheck::id).toList();
    }
}
