package dev.relaycheck.code.schedule;

import java.util.List;

/** How a run picks its next step among those enabled (listed in a fixed order). One strategy a file. */
public interface Strategy {

    /** The choice to take; {@code enabled} is never empty. */
    Choice pick(List<Choice> enabled, int step);

    /** The name replay lines give ({@code random}, {@code pct}, {@code schedule}). */
    String name();
}
