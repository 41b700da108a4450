package dev.relaycheck.model;

import dev.relaycheck.model.catalogue.LogicCatalogue;
import dev.relaycheck.model.variants.RenewalByOwner;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Lease renewal, clock skew and commit visibility in the pure model. */
class TimingHazardsTest {

    private static ScheduleRunner.Run run(RelayLogic logic, Scenario scenario, String... steps) {
        return ScheduleRunner.run(new RelayModel(logic, scenario), Schedules.of(steps));
    }

    private static List<Invariant> broken(ScheduleRunner.Run run) {
        return run.violations().stream().map(Violation::invariant).toList();
    }

    @Nested
    class Renewal {
        private final Scenario scenario = ReferenceScenarios.leaseRenewal();

        @Test
        void theOwnerRenewsItsLiveLeaseAndKeepsWorking() {
            ScheduleRunner.Run r = run(LogicCatalogue.correct(), scenario, "Claim(p1)", "Tick", "Renew(p1,E1,t1)",
                    "Deliver(p1,E1,t1)", "Ack(p1,E1,t1)");
            assertThat(r.violations()).isEmpty();
            assertThat(r.steps().get(2).outcome()).isEqualTo(new Outcome.Renewed("E1", 1, 3));
            assertThat(r.witnesses()).contains(Witness.LEASE_RENEWED);
        }

        @Test
        void aRenewalAfterATakeoverIsRefusedAndThePollerGivesUpItsBatch() {
            ScheduleRunner.Run r = run(LogicCatalogue.correct(), scenario, "Claim(p1)", "Tick", "Tick", "Claim(p2)",
                    "Renew(p1,E1,t1)");
            assertThat(r.violations()).isEmpty();
            assertThat(r.steps().get(4).outcome()).isInstanceOf(Outcome.RenewalRefused.class);
            assertThat(r.finalState().poller(0)).isEqualTo(PollerState.IDLE);
            assertThat(r.finalState().row("E1").orElseThrow().lease()).isEqualTo(new Lease("p2", 2, 4));
            assertThat(r.witnesses()).contains(Witness.RENEWAL_REFUSED);
        }

        @Test
        void byOwnerRenewsATakenOverLeaseButNotALapsedOne() {
            assertThat(broken(run(new RenewalByOwner(), scenario, "Claim(p1)", "Tick", "Tick", "Claim(p2)", "Renew(p1,E1,t1)")))
                    .containsExactly(Invariant.SINGLE_LIVE_LEASE);
            ScheduleRunner.Run lapsed = run(new RenewalByOwner(), scenario, "Claim(p1)", "Tick", "Tick", "Claim(p2)", "Tick",
                    "Tick", "Renew(p1,E1,t1)");
            assertThat(lapsed.violations()).isEmpty(); // it re-checks expiry; renewal-ignores-expiry does not
            assertThat(broken(run(LogicCatalogue.byId("renewal-ignores-expiry").orElseThrow(), scenario, "Claim(p1)", "Tick",
                    "Tick", "Claim(p2)", "Tick", "Tick", "Renew(p1,E1,t1)"))).containsExactly(Invariant.SINGLE_LIVE_LEASE);
        }

        /** Fenced by token, a renewal without the expiry re-check is harmless: nobody else can hold that token. */
        @Test
        void aTokenFencedRenewalNeedsNoExpiryRecheck() {
            RelayLogic tokenOnly = new CorrectRelayLogic() {
                @Override
                public boolean acceptsRenewal(OutboxRow row, long token, String poller, int now) {
                    return row.isPending() && row.hasLease() && row.lease().token() == token;
                }
            };
            ScheduleRunner.Run lapsedUnclaimed = run(tokenOnly, scenario, "Claim(p1)", "Tick", "Tick", "Tick", "Renew(p1,E1,t1)");
            assertThat(lapsedUnclaimed.violations()).isEmpty();
            assertThat(lapsedUnclaimed.steps().get(4).outcome()).isInstanceOf(Outcome.Renewed.class);
            assertThat(run(tokenOnly, scenario, "Claim(p1)", "Tick", "Tick", "Claim(p2)", "Renew(p1,E1,t1)").violations()).isEmpty();
        }

        @Test
        void renewalsAreBoundedAndOnlyWhileWorking() {
            RelayModel model = new RelayModel(LogicCatalogue.correct(), scenario);
            RelayState s = model.initial();
            assertThat(model.enabled(s)).noneMatch(x -> x instanceof Step.Renew);
            s = model.apply(s, Step.parse("Claim(p1)")).state();
            assertThat(model.enabled(s)).contains(Step.parse("Renew(p1,E1,t1)"));
            s = model.apply(s, Step.parse("Renew(p1,E1,t1)")).state();
            assertThat(model.enabled(s)).noneMatch(x -> x instanceof Step.Renew); // renewals 1, spent
            assertThat(new RelayModel(LogicCatalogue.correct(), ReferenceScenarios.staleAckAfterExpiry())
                    .enabled(new RelayModel(LogicCatalogue.correct(), ReferenceScenarios.staleAckAfterExpiry())
                            .apply(RelayState.initial(ReferenceScenarios.staleAckAfterExpiry()), Step.parse("Claim(p1)")).state()))
                    .as("no renewals in a scenario without them").noneMatch(x -> x instanceof Step.Renew);
        }
    }

    @Nested
    class ClockSkew {
        private final Scenario scenario = ReferenceScenarios.clockSkew();

        @Test
        void theSearchChoosesEveryPollersSkewFirst() {
            RelayModel model = new RelayModel(LogicCatalogue.correct(), scenario);
            assertThat(model.enabled(model.initial())).containsExactly(new Step.Skew("p1", -1), new Step.Skew("p1", 0),
                    new Step.Skew("p1", 1));
            RelayState s = model.apply(model.initial(), new Step.Skew("p1", -1)).state();
            assertThat(model.enabled(s)).containsExactly(new Step.Skew("p2", -1), new Step.Skew("p2", 0), new Step.Skew("p2", 1));
            s = model.apply(s, new Step.Skew("p2", 1)).state();
            assertThat(s.surroundings().skews()).containsExactly(-1, 1);
            assertThat(model.enabled(s)).contains(new Step.Claim("p1")).noneMatch(x -> x instanceof Step.Skew);
        }

        @Test
        void skewPrintsAndParsesWithItsSign() {
            for (String text : List.of("Skew(p2,+1)", "Skew(p1,-1)", "Skew(p1,0)")) {
                assertThat(Step.parse(text).toString()).isEqualTo(text);
            }
            assertThatThrownBy(() -> Step.parse("Skew(p1,x)")).hasMessageContaining("bad skew");
        }

        @Test
        void theCorrectLogicJudgesLeasesOnTheDatabasesClock() {
            ScheduleRunner.Run r = run(LogicCatalogue.correct(), scenario, "Skew(p1,0)", "Skew(p2,+1)", "Claim(p1)", "Tick");
            assertThat(r.violations()).isEmpty();
            assertThat(new RelayModel(LogicCatalogue.correct(), scenario).enabled(r.finalState()))
                    .as("p1's lease (expiry 2) is live at database time 1, whatever p2's clock says")
                    .doesNotContain(new Step.Claim("p2"));
            assertThat(r.witnesses()).contains(Witness.CLOCK_SKEWED);
        }

        @Test
        void appClockExpiryIsSafeWhenTheTakerRunsBehind() {
            RelayLogic appClock = LogicCatalogue.byId("app-clock-expiry").orElseThrow();
            ScheduleRunner.Run r = run(appClock, scenario, "Skew(p1,0)", "Skew(p2,-1)", "Claim(p1)", "Tick", "Tick");
            assertThat(r.violations()).isEmpty();
            assertThat(new RelayModel(appClock, scenario).enabled(r.finalState())).doesNotContain(new Step.Claim("p2"));
        }

        /**
         * A lease is live on the clock its expiry was written on. With every clock one tick ahead, a relay that writes
         * and judges expiry on its own clock behaves as it would with none skewed: p2 takes the row when p1's lease ends
         * on p1's clock too, so no two pollers hold a live lease, though the expiry number is still ahead of the
         * database's clock. With p2's clock alone ahead it takes the row a tick early: a live lease replaced.
         */
        @Test
        void appClockExpiryIsJudgedOnTheClockItsExpiryWasWrittenOn() {
            RelayLogic appClock = LogicCatalogue.byId("app-clock-expiry").orElseThrow();
            ScheduleRunner.Run ahead = run(appClock, scenario, "Skew(p1,+1)", "Skew(p2,+1)", "Claim(p1)", "Tick", "Tick", "Claim(p2)");
            assertThat(ahead.violations()).isEmpty();
            assertThat(ahead.finalState().row("E1").orElseThrow().lease().toString()).isEqualTo("p2/t2/exp5 on a clock db+1");
            ScheduleRunner.Run apart = run(appClock, scenario, "Skew(p1,0)", "Skew(p2,+1)", "Claim(p1)", "Tick", "Claim(p2)");
            assertThat(broken(apart)).containsExactly(Invariant.SINGLE_LIVE_LEASE);
            assertThat(apart.violations().get(0).detail()).isEqualTo("p2's claim of E1 at t=1 replaced the live lease p1/t1/exp2 "
                    + "that p1 still holds: p1 and p2 both believe they own E1");
            ScheduleRunner.Run behind = run(appClock, scenario, "Skew(p1,-1)", "Skew(p2,0)", "Claim(p1)", "Tick", "Claim(p2)");
            assertThat(behind.violations().get(0).detail()).isEqualTo("p2's claim of E1 at t=1 replaced the live lease "
                    + "p1/t1/exp1 on a clock db-1 (live until t=2 on the database's clock) that p1 still holds: p1 and p2 both "
                    + "believe they own E1");
        }
    }

    @Nested
    class CommitVisibility {
        private final Scenario scenario = ReferenceScenarios.commitVisibility();
        private final String[] skip = {"Begin(E1)", "Begin(E2)", "Commit(E2)", "Claim(p1)", "Commit(E1)"};

        @Test
        void aRowInFlightIsInvisibleAndTheProducerIsNotDone() {
            RelayModel model = new RelayModel(LogicCatalogue.correct(), scenario);
            ScheduleRunner.Run r = run(LogicCatalogue.correct(), scenario, "Begin(E1)", "Begin(E2)");
            assertThat(r.finalState().rows()).isEmpty();
            assertThat(model.enabled(r.finalState())).containsExactly(new Step.Commit("E1"), new Step.Commit("E2"), new Step.Tick());
            assertThat(Invariants.isComplete(scenario, r.finalState())).isFalse();
        }

        @Test
        void claimingByStatusFindsTheLateRow() {
            ScheduleRunner.Run r = run(LogicCatalogue.correct(), scenario, skip);
            assertThat(r.violations()).isEmpty();
            assertThat(r.witnesses()).contains(Witness.LATE_COMMIT);
            assertThat(Healing.check(new RelayModel(LogicCatalogue.correct(), scenario), r.finalState())).isEmpty();
        }

        @Test
        void aCursorThatWaitsForInFlightSequencesDoesNotReadPastThem() {
            RelayLogic waiting = new WaitingCursorRelayLogic();
            RelayModel model = new RelayModel(waiting, scenario);
            ScheduleRunner.Run r = run(waiting, scenario, "Begin(E1)", "Begin(E2)", "Commit(E2)");
            assertThat(model.enabled(r.finalState())).as("E2 waits behind E1's open transaction")
                    .doesNotContain(new Step.Claim("p1"));
            ScheduleRunner.Run done = run(waiting, scenario, "Begin(E1)", "Begin(E2)", "Commit(E2)", "Commit(E1)", "Claim(p1)");
            assertThat(done.violations()).isEmpty();
            assertThat(Healing.check(model, done.finalState())).isEmpty();
        }

        @Test
        void theCursorRelayLosesTheLateRow() {
            ScheduleRunner.Run r = run(LogicCatalogue.byId("cursor-by-sequence").orElseThrow(), scenario, skip);
            assertThat(broken(r)).containsExactly(Invariant.NO_LOST_EVENT);
            assertThat(r.violations().get(0).detail()).contains("E1 (seq 1)").contains("cursor had passed seq 2");
        }

        @Test
        void overlappingProducersNeedTheProducerInTheRun() {
            assertThatThrownBy(() -> Scenario.builder("x").pollers("p1").producersOverlap(true).build())
                    .hasMessageContaining("producers-overlap needs produced-during-run");
        }
    }

    @Test
    void theNewKeysRoundTripAndOldScenariosAreWrittenAsBefore() {
        for (Scenario s : List.of(ReferenceScenarios.leaseRenewal(), ReferenceScenarios.clockSkew(),
                ReferenceScenarios.commitVisibility())) {
            assertThat(ScenarioText.parse(ScenarioText.write(s), "x")).isEqualTo(s);
        }
        assertThat(ScenarioText.write(ReferenceScenarios.clockSkew())).contains("max-skew 1\n");
        for (Scenario s : ReferenceScenarios.all().subList(0, 9)) {
            assertThat(ScenarioText.write(s)).doesNotContain("renewals").doesNotContain("max-skew").doesNotContain("overlap");
            assertThat(s.hazardBounds()).isEqualTo(Scenario.HazardBounds.NONE);
        }
    }
}
