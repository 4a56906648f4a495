package dev.sessionstore.jdbc.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Announces a store instance's committed appends: to its own waiting reads at once, and to the listeners of every
 * other instance by notification, outside the appends' transactions. PostgreSQL serializes the commits of all
 * notifying transactions server-wide, so a notification inside each append would make appends to unrelated sessions
 * commit one at a time.
 *
 * <p>{@link #appended} wakes the instance's own waiters, records the session's wake key and returns. A background
 * thread takes every pending key (each once, however many appends named it) and sends them in one auto-committed
 * statement on a connection borrowed for it, then, after a short spacing, looks for more. At most
 * {@value #MAX_PENDING} keys wait; beyond that keys are dropped with a warning: a notification only shortens a
 * wait, the waiting read's poll interval bounds it anyway. When sending fails (a lost connection, a database
 * restarting) the keys wait again and go with the next statement, after a pause, so that appends committed just
 * before or after a restart still wake the other instances. Appends never wait for a notification and never fail
 * because of one.
 *
 * <p>{@link #close()} sends what is pending, then stops the thread; appends that commit later wake this instance's
 * waiters only.
 */
final class AppendNotifier implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(AppendNotifier.class);
  /** The most wake keys waiting to be sent; a wake key is at most 65 bytes. */
  private static final int MAX_PENDING = 10_000;
  /** The most wake keys one statement sends. */
  private static final int MAX_PER_STATEMENT = 1_000;
  /**
   * The least time from one statement to the next, so that under load each statement carries the sessions of many
   * appends rather than one or two, at little cost to the first notification after a quiet spell.
   */
  private static final long SPACING_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
  /** How long sending pauses after a failure, so a database that is down is not asked after every append. */
  private static final long PAUSE_AFTER_FAILURE_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
  private static final long STOP_GRACE_MILLIS = 10_000;

  private final SessionWaiters waiters;
  private final DataSource dataSource;
  private final String statement;
  private final String channel;
  private final Thread thread;
  /** Wake keys to send, in arrival order; guarded by itself. */
  private final Set<String> pending = new LinkedHashSet<>();
  /** Guarded by {@link #pending}. */
  private boolean closing;
  /** Guarded by {@link #pending}: whether keys were dropped since the last warning. */
  private boolean overflowing;
  /** Touched by the sending thread only. */
  private boolean failing;

  /**
   * Starts the sending thread.
   *
   * @param statement a query taking the channel and a text array of wake keys ({@link Dialect#notifyEach()})
   */
  AppendNotifier(SessionWaiters waiters, DataSource dataSource, String statement, String channel) {
    this.waiters = waiters;
    this.dataSource = dataSource;
    this.statement = statement;
    this.channel = channel;
    this.thread = new Thread(this::sendLoop, "session-store-notifier " + channel);
    this.thread.setDaemon(true);
    this.thread.start();
  }

  /**
   * Announces that an append to {@code sessionId} committed (or found its events stored already, in case the
   * process that stored them stopped before announcing them): wakes this instance's waiting reads of the session and
   * notifies the other instances soon, without waiting.
   */
  void appended(String sessionId) {
    waiters.wake(sessionId);
    String key = SessionWaiters.wakeKey(sessionId);
    synchronized (pending) {
      if (closing) {
        return;
      }
      if (pending.size() >= MAX_PENDING && !pending.contains(key)) {
        if (!overflowing) {
          overflowing = true;
          LOG.warn("session-store: {} notifications on {} wait to be sent; dropping more until they are (waiting"
              + " reads elsewhere fall back to their poll interval)", MAX_PENDING, channel);
        }
        return;
      }
      if (pending.add(key) && pending.size() == 1) {
        pending.notifyAll();
      }
    }
  }

  private void sendLoop() {
    while (true) {
      List<String> keys = take();
      if (keys.isEmpty()) {
        return;
      }
      if (send(keys)) {
        pause(SPACING_NANOS);
      } else {
        requeue(keys);
        pause(PAUSE_AFTER_FAILURE_NANOS);
      }
    }
  }

  /** Puts keys whose sending failed back, unless closing or full: they go with the next statement. */
  private void requeue(List<String> keys) {
    synchronized (pending) {
      for (String key : keys) {
        if (closing || pending.size() >= MAX_PENDING) {
          return;
        }
        pending.add(key);
      }
    }
  }

  /** Waits for pending keys and takes up to a statement's worth; empty once closing and nothing is pending. */
  private List<String> take() {
    synchronized (pending) {
      while (pending.isEmpty() && !closing) {
        try {
          pending.wait();
        } catch (InterruptedException e) {
          closing = true;
        }
      }
      List<String> keys = new ArrayList<>(Math.min(pending.size(), MAX_PER_STATEMENT));
      Iterator<String> each = pending.iterator();
      while (each.hasNext() && keys.size() < MAX_PER_STATEMENT) {
        keys.add(each.next());
        each.remove();
      }
      overflowing = false;
      return keys;
    }
  }

  /** Sends {@code keys} in one auto-committed statement; returns whether it succeeded. */
  private boolean send(List<String> keys) {
    try (Connection connection = dataSource.getConnection()) {
      if (!connection.getAutoCommit()) {
        connection.setAutoCommit(true);
      }
      Sql.list(connection, statement, row -> Boolean.TRUE, channel, Sql.textArray(connection, keys));
      if (failing) {
        LOG.info("session-store: notifications on {} are sent again", channel);
        failing = false;
      }
      return true;
    } catch (SQLException | RuntimeException e) {
      if (!failing) {
        LOG.warn("session-store: sending {} notifications on {} failed; trying again every {} ms", keys.size(),
            channel, TimeUnit.NANOSECONDS.toMillis(PAUSE_AFTER_FAILURE_NANOS), e);
        failing = true;
      } else {
        LOG.debug("session-store: sending {} notifications on {} failed again", keys.size(), channel, e);
      }
      return false;
    }
  }

  /** Waits {@code nanos} before the next statement, or less once closing. */
  private void pause(long nanos) {
    long deadline = System.nanoTime() + nanos;
    synchronized (pending) {
      long remaining = nanos;
      while (!closing && remaining > 0) {
        try {
          TimeUnit.NANOSECONDS.timedWait(pending, remaining);
        } catch (InterruptedException e) {
          closing = true;
        }
        remaining = deadline - System.nanoTime();
      }
    }
  }

  /** Sends the pending notifications, then stops; later announcements are ignored. Idempotent. */
  @Override
  public void close() {
    synchronized (pending) {
      closing = true;
      pending.notifyAll();
    }
    try {
      thread.join(STOP_GRACE_MILLIS);
      if (thread.isAlive()) {
        LOG.warn("session-store: notifications on {} still not sent after {} ms; dropping them", channel,
            STOP_GRACE_MILLIS);
        thread.interrupt();
      }
    } catch (InterruptedException e) {
      thread.interrupt();
      Thread.currentThread().interrupt();
    }
  }
}
