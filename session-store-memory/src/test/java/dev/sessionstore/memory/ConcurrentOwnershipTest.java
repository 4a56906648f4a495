package dev.sessionstore.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.ConflictException;
import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.RunWrite;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Store-wide uniqueness and deletion under races between sessions, as seen through the public API. */
class ConcurrentOwnershipTest {

  private final SessionStore store = InMemorySessionStore.builder().build();
  private final ExecutorService pool = Executors.newFixedThreadPool(8);

  @AfterEach
  void close() throws InterruptedException {
    pool.shutdownNow();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    store.close();
  }

  /** Runs every task at once and returns whether each one succeeded (false: it threw a conflict). */
  private List<Boolean> race(List<Callable<?>> tasks) throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Boolean>> futures = new ArrayList<>();
    for (Callable<?> task : tasks) {
      futures.add(pool.submit(() -> {
        start.await();
        try {
          task.call();
          return true;
        } catch (ConflictException conflict) {
          return false;
        }
      }));
    }
    start.countDown();
    List<Boolean> outcomes = new ArrayList<>();
    for (Future<Boolean> future : futures) {
      outcomes.add(future.get(30, TimeUnit.SECONDS));
    }
    return outcomes;
  }

  @Test
  void oneOfManySessionsGetsAContestedName() throws Exception {
    List<Callable<?>> saves = new ArrayList<>();
    for (int i = 0; i < 32; i++) {
      String sessionId = "s" + i;
      saves.add(() -> store.sessions().save(SessionWrite.of(sessionId).withName("shared")));
    }

    List<Boolean> outcomes = race(saves);

    assertThat(outcomes).containsOnlyOnce(true);
    String winner = "s" + outcomes.indexOf(true);
    assertThat(store.sessions().findByName("shared")).hasValueSatisfying(s -> assertThat(s.id()).isEqualTo(winner));
    assertThat(store.sessions().list(SessionQuery.all()).items()).hasSize(1);
  }

  /** Stochastic: a step that kept the name it claimed though it lost shows in most runs, not all. */
  @Test
  void aStepLosingTheNameLeavesNeitherSessionNorEvents() throws Exception {
    for (int round = 0; round < 1_000; round++) {
      String name = "name-" + round;
      Step first = Step.builder("a" + round).session(SessionWrite.of("a" + round).withName(name))
          .run(RunWrite.of("r", "a" + round)).event(NewEvent.of("m")).build();
      Step second = Step.builder("b" + round).session(SessionWrite.of("b" + round).withName(name))
          .run(RunWrite.of("r", "b" + round)).event(NewEvent.of("m")).build();

      List<Boolean> outcomes = race(List.of(() -> store.commit(first), () -> store.commit(second)));

      assertThat(outcomes).as("round %d", round).containsOnlyOnce(true);
      String loser = outcomes.get(0) ? "b" + round : "a" + round;
      String winner = outcomes.get(0) ? "a" + round : "b" + round;
      assertThat(store.sessions().find(loser)).isEmpty();
      assertThat(store.events().lastSeq(loser)).isZero();
      assertThat(store.runs().find(loser, "r")).isEmpty();
      assertThat(store.runs().find(winner, "r")).isPresent();
      assertThat(store.sessions().findByName(name)).hasValueSatisfying(s -> assertThat(s.id()).isEqualTo(winner));
    }
  }

  @Test
  void deletionRacingAppendsLeavesAGaplessLogStartingAtOne() throws Exception {
    AtomicBoolean appending = new AtomicBoolean(true);
    Future<Integer> deletions = pool.submit(() -> {
      int deleted = 0;
      while (appending.get()) {
        if (store.sessions().delete("s")) {
          deleted++;
        }
      }
      return deleted;
    });
    for (int i = 0; i < 5_000; i++) {
      Event event = store.events().append("s", NewEvent.of("m"));
      assertThat(event.seq()).isPositive();
    }
    appending.set(false);
    deletions.get(30, TimeUnit.SECONDS);

    List<Event> remaining = store.events().read("s", EventQuery.all()).items();
    for (int i = 0; i < remaining.size(); i++) {
      assertThat(remaining.get(i).seq()).isEqualTo(i + 1L);
    }
    assertThat(store.events().lastSeq("s")).isEqualTo(remaining.size());
  }
}
