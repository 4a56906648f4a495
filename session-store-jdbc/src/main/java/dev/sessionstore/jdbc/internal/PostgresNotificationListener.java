package dev.sessionstore.jdbc.internal;

import dev.sessionstore.StoreFailureException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Receives the append notifications of every writer of a store's tables on one dedicated connection and wakes the
 * matching waiting reads. A background thread blocks in {@link PGConnection#getNotifications(int)}; when the
 * connection fails it wakes every waiter, reconnects with backoff (100 ms doubling up to 1 s, so a restarted database
 * is listened to again within a second of accepting connections), {@code LISTEN}s again and wakes every waiter once
 * more, since notifications sent meanwhile are lost. Waiting reads re-read when woken, retrying while the database
 * is unreachable, so a lost notification costs at most one re-read, never a failed wait.
 *
 * <p>{@link #close()} wakes the thread with a notification only this listener knows, so closing takes one round
 * trip rather than a receive timeout; the thread then {@code UNLISTEN}s and returns the connection.
 */
final class PostgresNotificationListener implements WakeUpListener {

  private static final Logger LOG = LoggerFactory.getLogger(PostgresNotificationListener.class);
  private static final int RECEIVE_TIMEOUT_MILLIS = 5_000;
  private static final long STOP_GRACE_MILLIS = 500;
  private static final Duration MIN_BACKOFF = Duration.ofMillis(100);
  /** Well below the default poll interval, so that after a restart wake-ups resume before polls would. */
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(1);

  private final DataSource dataSource;
  private final String channel;
  private final SessionWaiters waiters;
  /** A payload no session produces, used by {@link #close()} to end the receive loop at once. */
  private final String stopToken = "!stop " + UUID.randomUUID();
  private final Thread thread;
  private volatile boolean running = true;
  /** The listening connection as the data source lent it, and as pgjdbc's own; null while reconnecting. */
  private Connection connection;
  private PGConnection notifications;

  private PostgresNotificationListener(DataSource dataSource, String channel, SessionWaiters waiters) {
    this.dataSource = dataSource;
    this.channel = channel;
    this.waiters = waiters;
    this.thread = new Thread(this::receiveLoop, "session-store-listener " + channel);
    this.thread.setDaemon(true);
  }

  /**
   * Listens on {@code channel} before returning, so that no append committed after this call is missed.
   *
   * @throws StoreFailureException if the first connection or {@code LISTEN} fails
   */
  static PostgresNotificationListener start(DataSource dataSource, String channel, SessionWaiters waiters) {
    PostgresNotificationListener listener = new PostgresNotificationListener(dataSource, channel, waiters);
    try {
      listener.connect();
    } catch (SQLException e) {
      throw new StoreFailureException("session-store: cannot LISTEN for appends on " + channel, e);
    }
    listener.thread.start();
    return listener;
  }

  /** @throws SQLException also when the data source's connections are not pgjdbc's */
  private void connect() throws SQLException {
    Connection fresh = dataSource.getConnection();
    try {
      notifications = fresh.unwrap(PGConnection.class);
      fresh.setAutoCommit(true);
      try (Statement statement = fresh.createStatement()) {
        statement.execute("LISTEN " + quotedChannel());
      }
    } catch (SQLException | RuntimeException e) {
      closeQuietly(fresh);
      throw e;
    }
    connection = fresh;
  }

  private void receiveLoop() {
    Duration backoff = MIN_BACKOFF;
    while (running) {
      try {
        if (connection == null) {
          connect();
          LOG.info("session-store: listening again on {}", channel);
          waiters.wakeAll();
          backoff = MIN_BACKOFF;
        }
        PGNotification[] received = notifications.getNotifications(RECEIVE_TIMEOUT_MILLIS);
        if (received != null) {
          for (PGNotification notification : received) {
            deliver(notification.getParameter());
          }
        }
      } catch (SQLException | RuntimeException e) {
        if (!running) {
          break;
        }
        if (connection != null) {
          LOG.warn("session-store: notification connection on {} failed, reconnecting", channel, e);
          unlistenAndRelease();
          waiters.wakeAll();
        } else {
          LOG.debug("session-store: reconnecting on {} failed, next try in {} ms", channel, backoff.toMillis(), e);
        }
        if (!sleep(backoff)) {
          break;
        }
        backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
      }
    }
    unlistenAndRelease();
  }

  private void deliver(String payload) {
    if (stopToken.equals(payload)) {
      running = false;
    } else {
      waiters.wakeByKey(payload);
    }
  }

  /**
   * The connection goes back to its pool, so it must stop listening: notifications would pile up in it. Running
   * {@code UNLISTEN} through the pool's own wrapper also shows a pool that a failed connection is dead, so it is
   * evicted rather than lent out again.
   */
  private void unlistenAndRelease() {
    if (connection == null) {
      return;
    }
    try (Statement statement = connection.createStatement()) {
      statement.execute("UNLISTEN " + quotedChannel());
    } catch (SQLException e) {
      LOG.debug("session-store: UNLISTEN on {} failed", channel, e);
    }
    closeQuietly(connection);
    connection = null;
    notifications = null;
  }

  @Override
  public void close() {
    if (!running) {
      return;
    }
    running = false;
    try (Connection notifier = dataSource.getConnection();
         var statement = notifier.prepareStatement("SELECT pg_notify(?, ?)")) {
      statement.setString(1, channel);
      statement.setString(2, stopToken);
      statement.execute();
      if (!notifier.getAutoCommit()) {
        notifier.commit();
      }
    } catch (SQLException e) {
      LOG.debug("session-store: could not signal the listener on {} to stop; it stops within {} ms", channel,
          RECEIVE_TIMEOUT_MILLIS, e);
    }
    try {
      thread.join(STOP_GRACE_MILLIS);
      if (thread.isAlive()) {
        thread.interrupt(); // ends a reconnect backoff
        thread.join(RECEIVE_TIMEOUT_MILLIS + STOP_GRACE_MILLIS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private String quotedChannel() {
    return '"' + channel + '"';
  }

  private static boolean sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
      return true;
    } catch (InterruptedException e) {
      return false;
    }
  }

  private static void closeQuietly(Connection connection) {
    if (connection == null) {
      return;
    }
    try {
      connection.close();
    } catch (SQLException e) {
      LOG.debug("session-store: closing the notification connection failed", e);
    }
  }
}
