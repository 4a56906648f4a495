package dev.sessionstore.cassandra.internal;

import dev.sessionstore.spi.StoreEventHub;
import dev.sessionstore.spi.WaitOutages;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where waiting reads of one store instance sleep: every write of this instance that changes a log wakes them at
 * once, and each also wakes every poll interval to look for other processes' appends (Cassandra has no
 * notifications). A waiter re-reads its query after each wake; {@link #close()} releases every waiter for good.
 *
 * <p>Reports to the store's events each waiting read parked while it sleeps, and, when a read returns with what it
 * waited for after a wake by this instance's last change and that change was to its session, the time from that
 * change to the return (a wake by polling, or by a change of another session, is not timed).
 *
 * <p>A waiting read outlives nodes or a quorum it cannot reach until its timeout (guarantee 17): each read runs
 * through its {@link Wait#read}, and one that fails retryably (no node available, quorum unavailable, a read timeout)
 * is made again after the backoff of {@link WaitOutages} instead of ending the wait; the outage is logged once per
 * store, not per wait or retry.
 */
final class SessionWaiters {

  private static final Logger LOG = LoggerFactory.getLogger(SessionWaiters.class);

  private final StoreEventHub events;
  private final WaitOutages outages;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private long version;
  /** The session of the last change and when it was signalled ({@link System#nanoTime()}). */
  private String lastSession;
  private long lastSignalNanos;
  private boolean closed;

  /** @param backend what the store reads, for the log of an outage */
  SessionWaiters(StoreEventHub events, String backend) {
    this.events = events;
    this.outages = new WaitOutages(backend, LOG::warn, LOG::info);
  }

  /** Wakes every waiter: this instance committed a change of session {@code sessionId}'s log. */
  void signal(String sessionId) {
    lock.lock();
    try {
      version++;
      lastSession = sessionId;
      lastSignalNanos = System.nanoTime();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The sleeps of one waiting read of {@code sessionId}. */
  Wait startWait(String sessionId) {
    return new Wait(sessionId);
  }

  /** The current change count, to pass to {@link #sleep}. */
  long version() {
    lock.lock();
    try {
      return version;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Sleeps up to {@code nanos} unless a change after {@code seen} happened or the waiters are closed.
   *
   * @return false once closed
   */
  boolean sleep(long seen, long nanos) {
    lock.lock();
    try {
      long left = nanos;
      while (!closed && version == seen && left > 0) {
        left = changed.awaitNanos(left);
      }
      return !closed;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      lock.unlock();
    }
  }

  /**
   * When the change that ended a sleep begun at {@code seen} was signalled, if the last change since was this
   * instance's change of {@code sessionId}; else -1.
   */
  private long signalledFor(String sessionId, long seen) {
    lock.lock();
    try {
      return version != seen && sessionId.equals(lastSession) ? lastSignalNanos : -1;
    } finally {
      lock.unlock();
    }
  }

  /**
   * One waiting read: its reads across an outage, its sleeps, counted as parked, and the wake that let it find what
   * it waited for. Not thread-safe.
   */
  final class Wait {

    private final String sessionId;
    private final WaitOutages.Retry retry = outages.retry();
    private long signalledAt = -1;

    private Wait(String sessionId) {
      this.sessionId = sessionId;
    }

    /** {@link WaitOutages.Retry#attempt}: the result of {@code read}, or empty when the cluster could not answer. */
    <T> Optional<T> read(Supplier<T> read) {
      return retry.attempt(read);
    }

    /** How long to sleep before the next read: {@code pollNanos}, or the outage backoff after a failed read. */
    long pauseNanos(long pollNanos) {
      return retry.pauseNanos(pollNanos);
    }

    /** {@link SessionWaiters#sleep}, counted as a parked read while it sleeps. */
    boolean sleep(long seen, long nanos) {
      events.readParked();
      try {
        return SessionWaiters.this.sleep(seen, nanos);
      } finally {
        events.readUnparked();
        signalledAt = signalledFor(sessionId, seen);
      }
    }

    /** The read returns with what it waited for: reports the wake latency if a change of its session woke it. */
    void found() {
      if (signalledAt >= 0) {
        events.readWoken(Duration.ofNanos(System.nanoTime() - signalledAt));
      }
    }
  }

  /** Releases every waiter, now and later. */
  void close() {
    lock.lock();
    try {
      closed = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
