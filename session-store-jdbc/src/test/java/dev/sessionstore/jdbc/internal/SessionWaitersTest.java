package dev.sessionstore.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Registration of waiting reads under churn: none lost, none left behind, every one woken. */
class SessionWaitersTest {

  private static final long FIVE_SECONDS = TimeUnit.SECONDS.toNanos(5);

  @Test
  void aWaiterRegisteredBeforeAWakeSeesIt() throws InterruptedException {
    SessionWaiters waiters = new SessionWaiters();
    try (SessionWaiters.Waiter waiter = waiters.register("s")) {
      long generation = waiter.generation();
      waiters.wake("s");
      waiter.awaitAfter(generation, FIVE_SECONDS);
      assertThat(waiter.generation()).isEqualTo(generation + 1);
    }
    assertThat(waiters.waitedSessions()).isEmpty();
    assertThat(waiters.wakeUps("s")).isZero();
  }

  @Test
  void theLastCloseForgetsTheSessionAndALaterRegistrationStartsAfresh() {
    SessionWaiters waiters = new SessionWaiters();
    SessionWaiters.Waiter first = waiters.register("s");
    SessionWaiters.Waiter second = waiters.register("s");
    waiters.wake("s");
    first.close();
    assertThat(waiters.waitedSessions()).containsExactly("s");
    assertThat(waiters.wakeUps("s")).isEqualTo(1);
    second.close();
    assertThat(waiters.waitedSessions()).isEmpty();
    try (SessionWaiters.Waiter third = waiters.register("s")) {
      assertThat(waiters.waitedSessions()).containsExactly("s");
      assertThat(third.generation()).isZero();
    }
  }

  /**
   * Sixteen threads register and close waiters of two sessions over and over, so that registrations race the close
   * that retires a session's signal, while a seventeenth wakes both sessions. Every registered waiter must be
   * woken by a wake raised after it registered, and nothing may remain registered at the end.
   */
  @Test
  void registrationsRacingTheLastCloseAreNeitherLostNorLeftBehind() throws Exception {
    SessionWaiters waiters = new SessionWaiters();
    int threads = 16;
    int rounds = 2_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
    AtomicBoolean running = new AtomicBoolean(true);
    CountDownLatch start = new CountDownLatch(1);
    try {
      Future<?> waker = pool.submit(() -> {
        start.await();
        while (running.get()) {
          waiters.wake("a");
          waiters.wake("b");
          Thread.onSpinWait();
        }
        return null;
      });
      List<Future<Integer>> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        String session = t % 2 == 0 ? "a" : "b";
        workers.add(pool.submit(() -> {
          start.await();
          int woken = 0;
          for (int round = 0; round < rounds; round++) {
            try (SessionWaiters.Waiter waiter = waiters.register(session)) {
              long generation = waiter.generation();
              waiter.awaitAfter(generation, FIVE_SECONDS);
              if (waiter.generation() > generation) {
                woken++;
              }
            }
          }
          return woken;
        }));
      }
      start.countDown();
      for (Future<Integer> worker : workers) {
        assertThat(worker.get(2, TimeUnit.MINUTES)).isEqualTo(rounds);
      }
      running.set(false);
      waker.get(1, TimeUnit.MINUTES);
    } finally {
      running.set(false);
      pool.shutdownNow();
    }
    assertThat(waiters.waitedSessions()).isEmpty();
    assertThat(waiters.parked("a")).isZero();
    assertThat(waiters.parked("b")).isZero();
  }
}
