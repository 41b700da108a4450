package dev.relaycheck.checker.search;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CrewTest {

    @Test
    void everyMemberRunsEveryPhaseAndTheCallerSeesTheirWrites() {
        for (int size : new int[] {1, 2, 3, 5}) { // 5 is more than this machine's cores: members park, not spin
            try (Crew crew = new Crew(size, "test")) {
                long[] sums = new long[size];
                for (int phase = 1; phase <= 500; phase++) {
                    int p = phase;
                    crew.run(m -> sums[m] += p * (m + 1L));
                }
                for (int m = 0; m < size; m++) {
                    assertThat(sums[m]).isEqualTo(500L * 501 / 2 * (m + 1));
                }
            }
        }
    }

    @Test
    void forEachAloneDoesEveryItemOnceInOrderOnTheCallingThread() {
        try (Crew crew = new Crew(3, "test")) {
            java.util.List<Integer> items = new java.util.ArrayList<>();
            java.util.Set<Thread> threads = new java.util.HashSet<>();
            crew.forEach(40, (member, item) -> {
                assertThat(member).isZero();
                items.add(item);
                threads.add(Thread.currentThread());
            }, true);
            assertThat(items).containsExactlyElementsOf(java.util.stream.IntStream.range(0, 40).boxed().toList());
            assertThat(threads).containsExactly(Thread.currentThread());
            // and the crew still runs its members together afterwards
            AtomicIntegerArray done = new AtomicIntegerArray(40);
            crew.forEach(40, (member, item) -> done.incrementAndGet(item));
            for (int item = 0; item < 40; item++) {
                assertThat(done.get(item)).isEqualTo(1);
            }
        }
    }

    @Test
    void aCallerThatWaitsLongForAMemberGoesAloneForAWhileThenTriesTogetherAgain() {
        try (Crew crew = new Crew(2, "test")) {
            java.util.Set<Integer> members = java.util.concurrent.ConcurrentHashMap.newKeySet();
            // member 1 holds its item far longer than the caller works: the caller waits, so it backs off
            crew.forEach(2, (member, item) -> {
                members.add(member);
                if (member != 0) {
                    LockSupport.parkNanos(50_000_000);
                }
            });
            java.util.Set<Integer> after = java.util.concurrent.ConcurrentHashMap.newKeySet();
            for (int run = 0; run < 2; run++) { // the back-off: 2 runs alone
                crew.forEach(8, (member, item) -> after.add(member));
            }
            if (members.contains(1)) { // member 1 took an item (it may not have: the caller can take both)
                assertThat(after).containsExactly(0);
            }
            AtomicIntegerArray done = new AtomicIntegerArray(8); // then together again, every item once
            crew.forEach(8, (member, item) -> done.incrementAndGet(item));
            for (int item = 0; item < 8; item++) {
                assertThat(done.get(item)).isEqualTo(1);
            }
        }
    }

    @Test
    void forEachDoesEveryItemOnceAndAFreeMemberTakesUpWhatABusyOneLeaves() {
        try (Crew crew = new Crew(2, "test", false)) { // not adapting: a wait in a round would make later ones alone
            for (int round = 0; round < 50; round++) {
                AtomicIntegerArray done = new AtomicIntegerArray(100);
                crew.forEach(100, (member, item) -> done.incrementAndGet(item));
                for (int item = 0; item < 100; item++) {
                    assertThat(done.get(item)).as("item %d", item).isEqualTo(1);
                }
            }
            int[] byMember = new int[2];
            crew.forEach(20, (member, item) -> {
                byMember[member]++;
                if (member == 0) { // this thread stalls on each item it takes, as on a core the host gave away
                    LockSupport.parkNanos(50_000_000);
                }
            });
            assertThat(byMember[0] + byMember[1]).isEqualTo(20);
            assertThat(byMember[1]).as("the free member's items").isGreaterThan(byMember[0]);
        }
    }

    @Test
    void aMembersExceptionIsRethrownOnceAllAreDoneAndTheCrewGoesOn() {
        try (Crew crew = new Crew(3, "test")) {
            AtomicInteger done = new AtomicInteger();
            assertThatThrownBy(() -> crew.run(m -> {
                if (m == 2) {
                    throw new IllegalArgumentException("member 2 failed");
                }
                done.incrementAndGet();
            })).isInstanceOf(IllegalArgumentException.class).hasMessage("member 2 failed");
            assertThat(done.get()).isEqualTo(2);
            crew.run(m -> done.incrementAndGet());
            assertThat(done.get()).isEqualTo(5);
        }
    }

    @Test
    void closingEndsTheMembers() throws InterruptedException {
        Crew crew = new Crew(3, "crew-closing-test");
        crew.run(m -> { });
        crew.close();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("crew-closing-test")) {
                t.join(10_000);
                assertThat(t.isAlive()).isFalse();
            }
        }
    }
}
