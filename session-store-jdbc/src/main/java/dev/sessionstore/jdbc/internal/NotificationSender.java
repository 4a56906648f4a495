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
 * Notifies the listeners of every other store instance of this instance's committed appends, outside the appends'
 * transactions. PostgreSQL serializes the commits of all notifying transactions server-wide, so a notification
 * inside each append would make appends to unrelated sessions commit one at a time.
 *
 * <p>{@link #send} records a wake key and returns. A background thread takes every pending key (each once, however
 * many appends named it) and sends them in one auto-committed statement on a connection borrowed for it, then, after
 * a short spacing, looks for more. At most {@value #MAX_PENDING} keys wait; beyond that keys are dropped with a
 * warning: a notification only shortens a wait, the waiting read's poll interval bounds it anyway. When sending
 * fails (a lost connection, a database restarting, any {@link Throwable}) the keys wait again and go with the next
 * statement, after a pause, so that appends committed just before or after a restart still wake the other
 * instances. Should the thread stop all the same, that is logged once and later keys are not queued at all, so a
 * queue nobody empties never fills up and reports an overflow that is not one.
 *
 * <p>{@link #close()} sends what is pending, then stops the thread; later keys are ignored.
 */
final class NotificationSender implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(NotificationSender.class);
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

  private final DataSource dataSource;
  private final Dialect dialect;
  private final Sql sql;
  private final String channel;
  private final Thread thread;
  /** Wake keys to send, in arrival order; guarded by itself. */
  private final Set<String> pending = new LinkedHashSet<>();
  /** Guarded by {@link #pending}: no more keys are taken (closing, or the thread stopped). */
  private boolean closing;
  /** Guarded by {@link #pending}: whether keys were dropped since the last warning. */
  private boolean overflowing;
  /** Touched by the sending thread only. */
  private boolean failing;

  /**
   * Starts the sending thread.
   *
   * @param dialect whose {@link Dialect#notifyEach()} sends the wake keys
   */
  NotificationSender(DataSource dataSource, Dialect dialect, String channel) {
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.sql = new Sql(dialect);
    this.channel = channel;
    this.thread = BackgroundThreads.create("notifier", channel,
        "appends are no longer announced to other instances, whose waiting reads fall back to polling", () -> {
          try {
            sendLoop();
          } finally {
            stopTaking();
          }
        });
    this.thread.start();
  }

  /** Has {@code wakeKey} ({@link SessionWaiters#wakeKey}) sent to the other instances soon, without waiting. */
  void send(String wakeKey) {
    synchronized (pending) {
      if (closing) {
        return;
      }
      if (pending.size() >= MAX_PENDING && !pending.contains(wakeKey)) {
        if (!overflowing) {
          overflowing = true;
          LOG.warn("session-store: {} notifications on {} wait to be sent; dropping more until they are (waiting"
              + " reads elsewhere fall back to their poll interval)", MAX_PENDING, channel);
        }
        return;
      }
      if (pending.add(wakeKey) && pending.size() == 1) {
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

  /**
   * Sends {@code keys} in one auto-committed statement; returns whether it succeeded. Any failure, an
   * {@link Error} too, is logged (a warning once, then at debug while it repeats) and answered {@code false}.
   */
  private boolean send(List<String> keys) {
    try (Connection connection = dataSource.getConnection()) {
      if (!connection.getAutoCommit()) {
        connection.setAutoCommit(true);
      }
      sql.list(connection, dialect.notifyEach(), row -> Boolean.TRUE, channel, dialect.textList(connection, keys));
      if (failing) {
        LOG.info("session-store: notifications on {} are sent again", channel);
        failing = false;
      }
      return true;
    } catch (Throwable e) { // an Error too: the thread must outlive it, or the keys would pile up unsent
      if (!failing) {
        FailureLog.warn(LOG, e, "session-store: sending {} notifications on {} failed; trying again every {} ms",
            keys.size(), channel, TimeUnit.NANOSECONDS.toMillis(PAUSE_AFTER_FAILURE_NANOS));
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

  /** Once the thread ends, by closing or not, keys are neither queued nor kept. */
  private void stopTaking() {
    synchronized (pending) {
      closing = true;
      pending.clear();
    }
  }

  /** Sends the pending notifications, then stops; later keys are ignored. Idempotent. */
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
        thread.join(STOP_GRACE_MILLIS);
      }
    } catch (InterruptedException e) {
      thread.interrupt();
      Thread.currentThread().interrupt();
    }
  }
}
