package dev.relaycheck.model;

/** The state after a step and what the step observably did. */
public record StepResult(RelayState state, Outcome outcome) {
}
