package dev.sessionstore.cassandra.internal;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Where waiting reads of one store instance sleep: every write of this instance that changes a log wakes them at
 * once, and each also wakes every poll interval to look for other processes' appends (Cassandra has no
 * notifications). A waiter re-reads its query after each wake; {@link #close()} releases every waiter for good.
 */
final class SessionWaiters {

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private long version;
  private boolean closed;

  /** Wakes every waiter: a log of this instance changed. */
  void signal() {
    lock.lock();
    try {
      version++;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
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
