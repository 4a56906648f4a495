package dev.sessionstore.conformance;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * Runs tasks on their own threads, all released at once by a start latch so that they really race, and bounds the
 * whole run by a timeout so that a deadlocked store fails the test instead of hanging the build.
 */
final class Race {

  private Race() {
  }

  /** What one racing thread does in one round of {@link #rounds}. */
  interface RoundTask<T> {

    /** The task of thread {@code racer} in round {@code round}. */
    T apply(int round, int racer);
  }

  /**
   * Runs {@code rounds} races one after the other on the same {@code threads} threads: in each round every thread
   * spins (never parks) until all have arrived, then runs {@code task(round, racer)}, so that every round's tasks
   * start within a fraction of a microsecond of each other. Racer {@code r} then waits {@code r} times a stagger
   * before its task, a stagger that sweeps from zero to {@link #MAX_STAGGER_NANOS} over the rounds: a narrow race
   * window (between a store's check and its write) that two exactly simultaneous calls miss, because the first holds
   * a lock the second parks on, is hit by the rounds whose stagger is about the check's length. Keep {@code threads}
   * at about the number of processors: spinning threads need a processor each. Returns the results by round, each
   * in thread order.
   *
   * @throws AssertionError if a task throws (the first failure, with its cause) or the run exceeds {@code timeout}
   */
  static <T> List<List<T>> rounds(int threads, int rounds, Duration timeout, RoundTask<T> task) {
    AtomicInteger arrived = new AtomicInteger();
    AtomicBoolean failed = new AtomicBoolean();
    long giveUp = System.nanoTime() + timeout.toNanos();
    List<List<T>> byRacer = run(threads, timeout, racer -> {
      List<T> mine = new ArrayList<>(rounds);
      for (int round = 0; round < rounds; round++) {
        arrived.incrementAndGet();
        int all = (round + 1) * threads;
        while (arrived.get() < all) {
          if (failed.get() || System.nanoTime() - giveUp > 0) {
            throw new AssertionError("racer " + racer + " lost the others in round " + round
                + " (another racer failed, or a call hangs)");
          }
          Thread.onSpinWait();
        }
        long startAt = System.nanoTime() + racer * stagger(round);
        while (System.nanoTime() - startAt < 0) {
          Thread.onSpinWait();
        }
        try {
          mine.add(task.apply(round, racer));
        } catch (RuntimeException | AssertionError e) {
          failed.set(true);
          throw e;
        }
      }
      return mine;
    });
    List<List<T>> byRound = new ArrayList<>(rounds);
    for (int round = 0; round < rounds; round++) {
      List<T> results = new ArrayList<>(threads);
      for (List<T> racer : byRacer) {
        results.add(racer.get(round));
      }
      byRound.add(results);
    }
    return byRound;
  }

  /** The largest delay between two racers' starts in a round of {@link #rounds}. */
  static final long MAX_STAGGER_NANOS = 20_000;
  private static final int STAGGER_STEPS = 100;

  /** The delay between racer {@code r} and racer {@code r + 1} in {@code round}: 0 up to the maximum, again. */
  private static long stagger(int round) {
    return MAX_STAGGER_NANOS * (round % STAGGER_STEPS) / STAGGER_STEPS;
  }

  /**
   * Runs {@code task(0) .. task(threads - 1)} on {@code threads} threads released together and returns their results
   * in index order.
   *
   * @throws AssertionError if a task throws (the first failure, with its cause) or the run exceeds {@code timeout}
   */
  static <T> List<T> run(int threads, Duration timeout, IntFunction<T> task) {
    ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
      Thread thread = new Thread(runnable, "kit-race");
      thread.setDaemon(true);
      return thread;
    });
    try {
      CountDownLatch ready = new CountDownLatch(threads);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<T>> futures = new ArrayList<>(threads);
      for (int i = 0; i < threads; i++) {
        int index = i;
        futures.add(pool.submit(() -> {
          ready.countDown();
          start.await();
          return task.apply(index);
        }));
      }
      long deadline = System.nanoTime() + timeout.toNanos();
      if (!ready.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError("the kit could not start " + threads + " threads within " + timeout);
      }
      start.countDown();
      List<T> results = new ArrayList<>(threads);
      for (int i = 0; i < threads; i++) {
        long left = Math.max(0, deadline - System.nanoTime());
        try {
          results.add(futures.get(i).get(left, TimeUnit.NANOSECONDS));
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof AssertionError assertion) {
            throw assertion;
          }
          throw new AssertionError("thread " + i + " failed: " + cause, cause);
        } catch (TimeoutException e) {
          throw new AssertionError(threads + " racing threads did not finish within " + timeout
              + " (a deadlock or a lost wake-up in the store?)");
        }
      }
      return results;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while racing", e);
    } finally {
      pool.shutdownNow();
    }
  }
}
