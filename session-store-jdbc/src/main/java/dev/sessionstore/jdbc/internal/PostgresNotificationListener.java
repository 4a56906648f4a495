package dev.sessionstore.jdbc.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Receives the append notifications of every writer of a store's tables on one dedicated connection and wakes the
 * matching waiting reads.
 *
 * <p>A background thread blocks in {@link PGConnection#getNotifications(int)}. A connection that only waits for
 * messages notices nothing when its peer vanishes without closing it (a failover, a load balancer or NAT dropping an
 * idle connection: a half-open TCP connection), so every keep-alive interval the thread makes a round trip
 * ({@code SELECT 1}) under a network timeout of the same length (at least {@value #MIN_NETWORK_TIMEOUT_MILLIS} ms).
 * When the connection fails, by an error, the server closing it or the keep-alive timing out, the thread wakes every
 * waiter, logs once at warning level that waiting reads now fall back to polling, reconnects with backoff (100 ms
 * doubling up to 1 s, so a restarted database is listened to again within a second of accepting connections),
 * {@code LISTEN}s again, logs the recovery at info level and wakes every waiter once more, since notifications sent
 * meanwhile are lost. Waiting reads re-read when woken and poll meanwhile, so a lost notification costs at most one
 * poll interval, never a failed wait. The thread survives any {@link Throwable} its loop meets the same way.
 *
 * <p>{@code getNotifications} needs pgjdbc's own connection: one behind a pool's or a tracer's wrapper is reached
 * through {@link Connection#isWrapperFor}/{@link Connection#unwrap}. A data source whose connections do not unwrap to
 * it gets no listener at all ({@link #start} logs a warning and waiting reads poll), rather than a failed build.
 *
 * <p>{@link #close()} wakes the thread with a notification only this listener knows, so closing takes one round
 * trip rather than a receive timeout; the thread then {@code UNLISTEN}s and returns the connection.
 */
final class PostgresNotificationListener implements WakeUpListener {

  private static final Logger LOG = LoggerFactory.getLogger(PostgresNotificationListener.class);
  /** The longest single wait for notifications, so that a closing listener notices soon. */
  private static final int RECEIVE_TIMEOUT_MILLIS = 5_000;
  /** The least network timeout of the listening connection, so that a busy database is not taken for a dead one. */
  private static final int MIN_NETWORK_TIMEOUT_MILLIS = 1_000;
  private static final long STOP_GRACE_MILLIS = 500;
  private static final Duration MIN_BACKOFF = Duration.ofMillis(100);
  /** Well below the default poll interval, so that after a restart wake-ups resume before polls would. */
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(1);

  private final DataSource dataSource;
  private final String channel;
  private final SessionWaiters waiters;
  private final long keepAliveNanos;
  private final int networkTimeoutMillis;
  private final Duration pollInterval;
  /** A payload no session produces, used by {@link #close()} to end the receive loop at once. */
  private final String stopToken = "!stop " + UUID.randomUUID();
  private final Thread thread;
  private volatile boolean running = true;
  /** Whether the connection is listening; false from a failure until {@code LISTEN} succeeds again. */
  private volatile boolean listening;
  /** Touched by the listening thread only (and by {@link #start} before it starts). */
  private boolean fellBack;
  private Connection connection;
  private PGConnection notifications;
  private long nextKeepAlive;

  private PostgresNotificationListener(DataSource dataSource, String channel, SessionWaiters waiters,
      Duration keepAliveInterval, Duration pollInterval) {
    this.dataSource = dataSource;
    this.channel = channel;
    this.waiters = waiters;
    this.keepAliveNanos = keepAliveInterval.toNanos();
    this.networkTimeoutMillis = (int) Math.max(MIN_NETWORK_TIMEOUT_MILLIS,
        Math.min(Integer.MAX_VALUE, keepAliveInterval.toMillis()));
    this.pollInterval = pollInterval;
    this.thread = BackgroundThreads.create("listener", channel,
        "waiting reads of this store are no longer woken by other instances' appends and poll instead",
        this::receiveLoop);
  }

  /**
   * Listens on {@code channel} before returning, so that no append committed after this call is missed; if that
   * fails, logs a warning and keeps trying in the background. Never fails.
   *
   * @param keepAliveInterval how often the connection makes a round trip to prove it is alive
   * @param pollInterval      how often waiting reads poll, for the log lines of a fallback to polling
   * @return the listener, or {@link WakeUpListener#NONE} if the data source's connections are not pgjdbc's
   */
  static WakeUpListener start(DataSource dataSource, String channel, SessionWaiters waiters,
      Duration keepAliveInterval, Duration pollInterval) {
    PostgresNotificationListener listener = new PostgresNotificationListener(dataSource, channel, waiters,
        keepAliveInterval, pollInterval);
    try {
      listener.connect();
    } catch (NotListenable e) {
      listener.warnNotListenable(e);
      return WakeUpListener.NONE;
    } catch (SQLException | RuntimeException e) {
      listener.fallBack(e);
    }
    listener.thread.start();
    return listener;
  }

  /** Whether notifications are received now: false while the connection is lost or being replaced. */
  boolean isListening() {
    return listening;
  }

  /** @throws NotListenable when the data source's connections are not pgjdbc's and do not unwrap to it */
  private void connect() throws SQLException {
    Connection fresh = dataSource.getConnection();
    try {
      PGConnection driverConnection = driverConnection(fresh);
      fresh.setAutoCommit(true);
      boundNetworkWaits(fresh);
      try (Statement statement = fresh.createStatement()) {
        statement.execute("LISTEN " + quotedChannel());
      }
      notifications = driverConnection;
    } catch (SQLException | RuntimeException e) {
      closeQuietly(fresh);
      throw e;
    }
    connection = fresh;
    nextKeepAlive = System.nanoTime() + keepAliveNanos;
    listening = true;
  }

  /** pgjdbc's connection, {@code connection} itself or the one it wraps. */
  private static PGConnection driverConnection(Connection connection) throws SQLException {
    if (connection instanceof PGConnection driverConnection) {
      return driverConnection;
    }
    if (connection.isWrapperFor(PGConnection.class)) {
      return connection.unwrap(PGConnection.class);
    }
    throw new NotListenable(connection.getClass().getName());
  }

  /**
   * Bounds every wait for the server on this connection, so that a keep-alive on a half-open connection fails
   * instead of waiting forever. A wrapper that cannot set it leaves only errors and the server's own closing to
   * detect a lost connection.
   */
  private void boundNetworkWaits(Connection fresh) {
    try {
      fresh.setNetworkTimeout(Runnable::run, networkTimeoutMillis);
    } catch (SQLException | RuntimeException | AbstractMethodError e) {
      LOG.debug("session-store: cannot set a network timeout on the LISTEN connection on {}; a half-open connection"
          + " goes unnoticed until the server closes it", channel, e);
    }
  }

  private void receiveLoop() {
    Duration backoff = MIN_BACKOFF;
    while (running) {
      try {
        if (connection == null) {
          connect();
          recovered();
          backoff = MIN_BACKOFF;
        }
        long untilKeepAlive = nextKeepAlive - System.nanoTime();
        if (untilKeepAlive <= 0) {
          keepAlive();
          continue;
        }
        int wait = (int) Math.max(1, Math.min(RECEIVE_TIMEOUT_MILLIS, TimeUnit.NANOSECONDS.toMillis(untilKeepAlive)));
        PGNotification[] received = notifications.getNotifications(wait);
        if (received != null) {
          for (PGNotification notification : received) {
            deliver(notification.getParameter());
          }
        }
      } catch (NotListenable e) {
        warnNotListenable(e);
        break;
      } catch (Throwable e) { // an Error too: the thread must outlive it, or wake-ups would stop unseen
        if (!running) {
          break;
        }
        fallBack(e);
        unlistenAndRelease();
        waiters.wakeAll();
        if (!sleep(backoff)) {
          break;
        }
        backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
      }
    }
    unlistenAndRelease();
  }

  /**
   * One round trip, under the connection's network timeout: fails on a connection that no longer answers. Its text
   * names the channel, so that the connection reads as the channel's listener in {@code pg_stat_activity} whichever
   * statement it ran last.
   */
  private void keepAlive() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("/* keep-alive of LISTEN " + quotedChannel() + " */ SELECT 1");
    }
    nextKeepAlive = System.nanoTime() + keepAliveNanos;
  }

  private void deliver(String payload) {
    if (stopToken.equals(payload)) {
      running = false;
    } else {
      waiters.wakeByKey(payload);
    }
  }

  /** The connection failed or could not be had: warns once per outage, then logs at debug. */
  private void fallBack(Throwable failure) {
    listening = false;
    if (!fellBack) {
      fellBack = true;
      FailureLog.warn(LOG, failure, "session-store: not listening for appends on {}; waiting reads of this store fall"
          + " back to polling every {} ms until the connection is back; reconnecting", channel,
          pollInterval.toMillis());
    } else {
      LOG.debug("session-store: reconnecting on {} failed", channel, failure);
    }
  }

  private void recovered() {
    if (fellBack) {
      fellBack = false;
      LOG.info("session-store: listening again on {}; waiting reads wake on appends again", channel);
    }
    waiters.wakeAll();
  }

  private void warnNotListenable(NotListenable e) {
    LOG.warn("session-store: cannot LISTEN for appends on {}: the data source's connections ({}) are not pgjdbc's"
        + " and do not unwrap to it; waiting reads of this store poll every {} ms. Give the store a plain pgjdbc data"
        + " source for notifications (notificationDataSource) to have them woken at once", channel, e.getMessage(),
        pollInterval.toMillis());
  }

  /**
   * The connection goes back to its pool, so it must stop listening: notifications would pile up in it. Running
   * {@code UNLISTEN} through the pool's own wrapper also shows a pool that a failed connection is dead, so it is
   * evicted rather than lent out again.
   */
  private void unlistenAndRelease() {
    listening = false;
    if (connection == null) {
      return;
    }
    try (Statement statement = connection.createStatement()) {
      statement.execute("UNLISTEN " + quotedChannel());
    } catch (SQLException | RuntimeException e) {
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
    } catch (SQLException | RuntimeException e) {
      LOG.debug("session-store: could not signal the listener on {} to stop; it stops within {} ms", channel,
          RECEIVE_TIMEOUT_MILLIS, e);
    }
    try {
      thread.join(STOP_GRACE_MILLIS);
      if (thread.isAlive()) {
        thread.interrupt(); // ends a reconnect backoff
        thread.join(RECEIVE_TIMEOUT_MILLIS + 2L * networkTimeoutMillis + STOP_GRACE_MILLIS);
      }
      if (thread.isAlive()) {
        LOG.warn("session-store: the listener on {} did not stop in time; it stops once its connection answers",
            channel);
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
    try {
      connection.close();
    } catch (SQLException | RuntimeException e) {
      LOG.debug("session-store: closing the notification connection failed", e);
    }
  }

  /** The data source's connections are not pgjdbc's and do not unwrap to it: listening is impossible. */
  private static final class NotListenable extends SQLException {

    NotListenable(String connectionClass) {
      super(connectionClass);
    }
  }
}
