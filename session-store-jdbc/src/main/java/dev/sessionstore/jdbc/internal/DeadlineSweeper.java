package dev.sessionstore.jdbc.internal;

import dev.sessionstore.ToolCall;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Expires due tool calls in the background, so that deadlines fire for calls nobody reads and survive the process
 * that set them: every store instance on a database sweeps it. Each sweep takes due calls in batches with
 * {@code FOR UPDATE SKIP LOCKED}, so concurrent sweepers share the work instead of queuing on it, and expires them
 * with the same conditional update reads use, so a call is expired exactly once.
 *
 * <p>The same executor runs the store's retention schedule, when it has one ({@link #alsoEvery}), on a second thread.
 *
 * <p>A sweep that fails, for whatever reason ({@link Throwable}, an {@link Error} included: an executor would
 * otherwise cancel every later sweep silently), is logged as a warning once, then at debug while failures repeat,
 * and the next sweep runs on schedule; the first success after failures is logged at info.
 *
 * <p>Each call a sweep expired is reported to the store's {@link Database#events() hub} once its batch committed.
 */
final class DeadlineSweeper implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(DeadlineSweeper.class);
  private static final int BATCH_SIZE = 100;

  private final Database database;
  private final JdbcToolCalls toolCalls;
  private final Clock clock;
  private final ScheduledThreadPoolExecutor executor;
  private boolean failing;

  DeadlineSweeper(Database database, JdbcToolCalls toolCalls, Clock clock, Duration interval, String name) {
    this.database = database;
    this.toolCalls = toolCalls;
    this.clock = clock;
    // One thread; alsoEvery adds a second for its task, so that the task never delays sweeps.
    this.executor = new ScheduledThreadPoolExecutor(1, BackgroundThreads.factory("deadline-sweeper", name,
        "deadlines of tool calls nobody reads are no longer expired by this store, nor retention applied"));
    long millis = interval.toMillis();
    executor.scheduleWithFixedDelay(this::sweep, millis, millis, TimeUnit.MILLISECONDS);
  }

  /** Expires every call due now, batch by batch. Runs on the sweeper thread. */
  private void sweep() {
    int expired = 0;
    try {
      int batch;
      do {
        Instant now = clock.instant();
        List<ToolCall> due = database.transaction("expire due tool calls", connection -> {
          List<ToolCall> locked = toolCalls.lockDue(connection, now, BATCH_SIZE);
          if (!locked.isEmpty()) {
            toolCalls.expire(connection, locked, now);
          }
          return locked;
        });
        toolCalls.wake(due.stream().map(ToolCall::sessionId).toList());
        batch = due.size();
        expired += batch;
        for (int i = 0; i < batch; i++) {
          database.events().deadlineFired();
        }
      } while (batch == BATCH_SIZE);
      if (failing) {
        LOG.info("session-store: deadline sweeps succeed again");
        failing = false;
      }
    } catch (Throwable e) { // an Error too: a task that throws one is never run again by the executor
      if (!failing) {
        FailureLog.warn(LOG, e, "session-store: deadline sweep failed; retrying every interval");
        failing = true;
      } else {
        LOG.debug("session-store: deadline sweep failed again", e);
      }
    }
    if (expired > 0) {
      LOG.debug("session-store: expired {} tool calls past their deadline", expired);
    }
  }

  /**
   * Also runs {@code task} every {@code interval} (the first time one interval from now), on a thread of its own
   * beside the deadline sweeps, until {@link #close}; a failure is logged like a failed sweep and the task runs
   * again on schedule. The store's retention schedule runs here.
   */
  void alsoEvery(Duration interval, String what, Runnable task) {
    boolean[] failing = {false};
    long millis = interval.toMillis();
    executor.setCorePoolSize(2);
    executor.scheduleWithFixedDelay(() -> {
      try {
        task.run();
        if (failing[0]) {
          LOG.info("session-store: {} succeeds again", what);
          failing[0] = false;
        }
      } catch (Throwable e) { // an Error too: a task that throws one is never run again by the executor
        if (!failing[0]) {
          FailureLog.warn(LOG, e, "session-store: " + what + " failed; retrying every interval");
          failing[0] = true;
        } else {
          LOG.debug("session-store: {} failed again", what, e);
        }
      }
    }, millis, millis, TimeUnit.MILLISECONDS);
  }

  /** Stops sweeping; waits for a sweep under way to finish. */
  @Override
  public void close() {
    executor.shutdown();
    try {
      if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
        executor.shutdownNow();
      }
    } catch (InterruptedException e) {
      executor.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
