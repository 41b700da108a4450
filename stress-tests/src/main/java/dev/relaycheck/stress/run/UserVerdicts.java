package dev.relaycheck.stress.run;

import dev.relaycheck.model.store.UserTarget;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Names the user's rows after the user's classes and holds them to the fork proof: a row of the user's target
 * that passed is only a PASS if the forks proved they ran the user's classes; otherwise it is FAILED, whatever
 * jcstress saw.
 */
public final class UserVerdicts {
    private UserVerdicts() {
    }

    public static List<JcstressRow> attribute(List<JcstressRow> rows, UserTarget user, Optional<String> proofProblem, int forks) {
        List<JcstressRow> out = new ArrayList<>();
        String id = user.id();
        for (JcstressRow v : rows) {
            if (!JcstressTargets.isUser(v.target())) {
                out.add(v);
            } else if (proofProblem.isPresent()) {
                out.add(new JcstressRow(v.check(), id, v.expect(), "FAILED", "not proven to have run the user's classes: "
                        + proofProblem.get() + "; jcstress said: " + v.verdict() + ", " + v.detail()));
            } else {
                out.add(new JcstressRow(v.check(), id, v.expect(), v.verdict(), v.detail() + " [ran " + user.describe()
                        + ", proven by " + forks + " forked JVM" + (forks == 1 ? "" : "s") + "]"));
            }
        }
        return out;
    }
}
