package dev.sessionstore.memory.internal;

import dev.sessionstore.spi.Timeouts;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an action once the store clock reaches an instant, with at most one pending timer per key: scheduling a key
 * again replaces its timer, cancelling removes it. One daemon thread serves the whole store.
 *
 * <p>Timers wait in real time for the distance to the instant as the store clock measured it, then ask the clock
 * again: an instant not reached yet (a clock that lags real time, or one moved by hand) is waited for again, so an
 * action never runs before its instant by the store clock. Actions must tolerate running after the thing they act
 * on changed; the scheduler only guarantees that a replaced or cancelled timer does not fire when it is replaced or
 * cancelled before it starts.
 */
final class DeadlineScheduler {

  private static final Logger LOG = LoggerFactory.getLogger(DeadlineScheduler.class);
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final Clock clock;
  private final ScheduledThreadPoolExecutor executor;
  private final ConcurrentHashMap<String, Timer> timers = new ConcurrentHashMap<>();

  DeadlineScheduler(Clock clock) {
    this.clock = clock;
    this.executor = new ScheduledThreadPoolExecutor(1, runnable -> {
      Thread thread = new Thread(runnable, "session-store-memory-deadlines-" + THREADS.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    executor.setRemoveOnCancelPolicy(true);
    executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
  }

  /** The timer key of the tool call {@code toolCallId} of {@code sessionId} (ids never hold U+0000). */
  static String key(String sessionId, String toolCallId) {
    return sessionId + '\u0000' + toolCallId;
  }

  /** Runs {@code action} once the store clock reaches {@code at}, replacing any timer of {@code key}. */
  void schedule(String key, Instant at, Runnable action) {
    Timer timer = new Timer(key, at, action);
    timers.compute(key, (k, previous) -> {
      if (previous != null) {
        previous.cancel();
      }
      timer.start();
      return timer;
    });
  }

  /** Removes the timer of {@code key}, if any. */
  void cancel(String key) {
    Timer timer = timers.remove(key);
    if (timer != null) {
      timer.cancel();
    }
  }

  /** Stops the thread; pending timers never fire. */
  void close() {
    executor.shutdownNow();
    timers.clear();
  }

  private final class Timer {

    private final String key;
    private final Instant at;
    private final Runnable action;
    private ScheduledFuture<?> future;

    Timer(String key, Instant at, Runnable action) {
      this.key = key;
      this.at = at;
      this.action = action;
    }

    /** Arms the timer for the remaining distance to {@link #at}; called inside {@code timers.compute} for the key. */
    void start() {
      long delayNanos = Timeouts.nanos(Duration.between(clock.instant(), at));
      try {
        future = executor.schedule(this::fire, delayNanos, TimeUnit.NANOSECONDS);
      } catch (RejectedExecutionException closing) {
        LOG.debug("deadline {} of {} not scheduled: the store is closing", at, key);
      }
    }

    void cancel() {
      if (future != null) {
        future.cancel(false);
      }
    }

    private void fire() {
      if (clock.instant().isBefore(at)) {
        timers.computeIfPresent(key, (k, current) -> {
          if (current == this) {
            start();
          }
          return current;
        });
        return;
      }
      if (timers.remove(key, this)) {
        try {
          action.run();
        } catch (RuntimeException e) {
          LOG.warn("deadline action for {} failed", key, e);
        }
      }
    }
  }
}
