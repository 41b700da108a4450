package dev.relaycheck.stress;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.store.UserTarget;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.stress.support.Catalogue;
import dev.relaycheck.stress.support.Harness;
import dev.relaycheck.stress.support.ProducerOutboxStore;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Hazard: the producing service commits a business change (E1 takes stock of SKU-1) and inserts the outbox
 * row for it. Both must commit in one transaction, so anyone reading the database sees both or neither; if
 * the outbox insert is a separate transaction, there is an instant when the business write exists without
 * its outbox row, and a crash there loses the event for good (PRODUCE_ATOMIC).
 *
 * <p>The producer actor produces E1; the poller actor runs one claim transaction. Outcome {@code r1, r2}: the
 * claim's snapshot held E1's business write (1) or not (0), and the number of outbox rows it claimed.
 *
 * <p>Run just this harness (report in results/jcstress/Produce_01_Atomicity.txt):
 * <pre>java -cp stress-tests/target/jcstress.jar dev.relaycheck.stress.Curriculum --tests Produce_01 --out results/jcstress</pre>
 *
 * <p>Typical quick-mode result: {@code Correct} sees {@code 0, 0} and {@code 1, 1} only;
 * {@code OutboxOutsideTransaction} adds {@code 1, 0} in the samples where the claim lands between the
 * producer's two commits (rare: about 0.05-0.1%, hundreds in a quick run).
 */
@Description("a producer's business write and outbox insert race a poller; the poller never sees half a commit")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the claim ran before the produce committed: nothing to see or claim")
@Outcome(id = "1, 1", expect = ACCEPTABLE_INTERESTING,
        desc = "the claim saw the whole produce commit: E1's business write and its outbox row, which it claimed")
@Outcome(id = "1, 0", expect = FORBIDDEN,
        desc = "the business write was committed without its outbox row: a crash now loses E1 (PRODUCE_ATOMIC)")
@Outcome(id = "0, 1", expect = FORBIDDEN,
        desc = "an outbox row was claimable before its business write committed (PRODUCE_ATOMIC)")
@Outcome(expect = FORBIDDEN, desc = "any other outcome (no invariant named: a state this harness does not expect at all)")
public class Produce_01_Atomicity {

    static final Scenario SCENARIO = Scenario.builder("produce-atomicity").pollers("p1").stock("SKU-1", 10)
            .event("E1", "SKU-1", 1).producedDuringRun(true).build();
    static final Event E1 = SCENARIO.event("E1");

    /** An empty outbox and business table; the producer is about to commit E1. */
    public abstract static class Race implements Harness {
        final ProducerOutboxStore db;

        Race(RelayLogic logic) {
            db = new ProducerOutboxStore(logic, SCENARIO);
        }

        void poller(II_Result r) {
            ProducerOutboxStore.ClaimView view = db.claim("p1", 1);
            r.r1 = view.read().businessWrites().contains(E1.id()) ? 1 : 0;
            r.r2 = view.claimed();
        }

        @Override
        public RelayLogic logic() {
            return db.logic();
        }

        @Override
        public Object store() {
            return db;
        }
    }

    @JCStressTest
    @JCStressMeta(Produce_01_Atomicity.class)
    @State
    public static class Correct extends Race {
        public Correct() {
            super(Catalogue.correct());
        }

        @Actor
        public void producer() {
            db.produce(E1);
        }

        @Actor
        public void p1(II_Result r) {
            poller(r);
        }
    }

    /** outbox-outside-transaction: the business write commits, then the outbox row in its own transaction. */
    @JCStressTest
    @JCStressMeta(Produce_01_Atomicity.class)
    @State
    public static class OutboxOutsideTransaction extends Race {
        private static final RelayLogic LOGIC = Catalogue.logic("outbox-outside-transaction");

        public OutboxOutsideTransaction() {
            super(LOGIC);
        }

        @Actor
        public void producer() {
            db.produce(E1);
        }

        @Actor
        public void p1(II_Result r) {
            poller(r);
        }
    }

    /**
     * The user's logic (relaycheck stress --logic CLASS --classpath JAR), loaded in this forked JVM from the
     * user's jar; the producer is not part of a RelayStore, so a user's store plays no part here.
     */
    @JCStressTest
    @JCStressMeta(Produce_01_Atomicity.class)
    @State
    public static class User extends Race {
        public User() {
            super(UserTarget.fromSystemProperties().logic());
        }

        @Actor
        public void producer() {
            db.produce(E1);
        }

        @Actor
        public void p1(II_Result r) {
            poller(r);
        }
    }
}
