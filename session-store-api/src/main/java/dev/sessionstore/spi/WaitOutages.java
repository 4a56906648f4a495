package dev.sessionstore.spi;

import dev.sessionstore.StoreFailureException;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * How the waiting reads of one store outlive an unreachable backend until their own timeout (guarantee 17 of
 * docs/guarantees.md): a read of a wait that fails with a {@linkplain StoreFailureException#isRetryable() retryable}
 * {@link StoreFailureException} (connection lost, database restarting, nodes or quorum lost) does not end the wait;
 * the wait pauses and reads again, the pause starting at 20 ms and doubling up to 1 s, so that it returns within
 * about a second of the backend answering again and never spins. When its timeout passes first, the wait returns
 * what a timeout returns with the backend up. Every other failure (a non-retryable one, a closed store) is thrown to
 * the caller at once.
 *
 * <p>The adapter's wait loop asks {@link Retry#attempt} to run each read and sleeps {@link Retry#pauseNanos} between
 * reads (on whatever wakes its waits, so that a wake-up still ends the pause early). An outage is reported once per
 * store, not per wait or per retry: the first failed read after a success reports it as unreachable, the first
 * successful read after a failure as reachable again, with how long it was not.
 *
 * <p>Thread-safe: one per store, shared by its waits; each wait takes a {@link Retry} of its own.
 */
public final class WaitOutages {

  private static final long FIRST_PAUSE_MILLIS = 20;
  private static final long MAX_PAUSE_MILLIS = 1_000;
  private static final long FIRST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(FIRST_PAUSE_MILLIS);
  private static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(MAX_PAUSE_MILLIS);
  /** The value of {@link #unreachableSince} while the backend answers. */
  private static final long REACHABLE = Long.MIN_VALUE;

  private final String backend;
  private final Consumer<String> warn;
  private final Consumer<String> info;
  /** When ({@link System#nanoTime()}) a read of a wait last failed after a success, or {@link #REACHABLE}. */
  private final AtomicLong unreachableSince = new AtomicLong(REACHABLE);

  /**
   * @param backend what the store's reads reach, for the log ("PostgreSQL at …", "Cassandra keyspace …")
   * @param warn    where the start of an outage is logged (the adapter's SLF4J logger at warning level)
   * @param info    where its end is logged (the adapter's SLF4J logger at info level)
   */
  public WaitOutages(String backend, Consumer<String> warn, Consumer<String> info) {
    this.backend = Objects.requireNonNull(backend, "backend");
    this.warn = Objects.requireNonNull(warn, "warn");
    this.info = Objects.requireNonNull(info, "info");
  }

  /** The retries of one wait, begun now. */
  public Retry retry() {
    return new Retry();
  }

  private void failed(StoreFailureException failure) {
    if (unreachableSince.compareAndSet(REACHABLE, System.nanoTime())) {
      warn.accept("session-store: waiting reads cannot reach " + backend + " (" + failure.getMessage()
          + "); they keep waiting, reading again at most " + MAX_PAUSE_MILLIS + " ms apart, until their timeouts");
    }
  }

  private void succeeded() {
    long since = unreachableSince.get();
    if (since != REACHABLE && unreachableSince.compareAndSet(since, REACHABLE)) {
      info.accept("session-store: waiting reads reach " + backend + " again, after "
          + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since) + " ms");
    }
  }

  /** The reads of one wait and the pauses between them. Not thread-safe: one per wait. */
  public final class Retry {

    private long nextPause = FIRST_PAUSE_NANOS;
    private boolean lastFailed;

    private Retry() {
    }

    /**
     * Runs {@code read} and returns its result; empty when it failed with a retryable
     * {@link StoreFailureException}, after which the wait pauses {@link #pauseNanos} and reads again unless its
     * timeout has passed.
     *
     * @throws StoreFailureException if the read failed with one that is not retryable
     * @throws RuntimeException      whatever else the read throws (a closed store, bad input), unchanged
     */
    public <T> Optional<T> attempt(Supplier<T> read) {
      T result;
      try {
        result = read.get();
      } catch (StoreFailureException e) {
        if (!e.isRetryable()) {
          throw e;
        }
        lastFailed = true;
        failed(e);
        return Optional.empty();
      }
      lastFailed = false;
      nextPause = FIRST_PAUSE_NANOS;
      succeeded();
      return Optional.of(result);
    }

    /**
     * How long the wait sleeps before its next read: {@code pollNanos} after a read that answered; after a failed
     * one, the next pause of the backoff (20 ms doubling up to 1 s). The caller bounds it by the time its wait has
     * left.
     */
    public long pauseNanos(long pollNanos) {
      if (!lastFailed) {
        return pollNanos;
      }
      long pause = nextPause;
      nextPause = Math.min(nextPause * 2, MAX_PAUSE_NANOS);
      return pause;
    }
  }
}
