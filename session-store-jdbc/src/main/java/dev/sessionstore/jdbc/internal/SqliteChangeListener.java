package dev.sessionstore.jdbc.internal;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Learns of other connections' commits to a SQLite file by its change counter and wakes the waiting reads of the
 * sessions those commits changed, which re-read their session: SQLite's stand-in for {@code LISTEN}.
 *
 * <p>A background thread holds one connection of its own and runs {@code PRAGMA data_version} on it every poll
 * interval. The value differs from the last one read exactly when another connection (another store instance, in
 * this process or another) committed since; reading it costs no lock and no disk access (in WAL mode it is read from
 * the shared-memory index), so a short interval costs little. A wake-up thus reaches another process's waiting read
 * within about one interval of the commit. The connection never holds a transaction open between looks, so it never
 * keeps the write-ahead log from being checkpointed.
 *
 * <p><b>Which sessions changed.</b> The counter says only that something changed. When it moves, one query reads a
 * fingerprint of each session some read waits on ({@link SessionFingerprints}: what an append, a cut, a resolution
 * or expiry, a deletion or a re-creation changes), and only the sessions whose fingerprint differs from the one
 * recorded at an earlier look are woken, or that have none recorded yet (a read that began waiting since). While
 * the counter stands still, the sessions without a fingerprint get one, kept only if the counter still stands after
 * the read, so a commit between their first read and the recording is never taken for the baseline.
 *
 * <p>When the connection fails, the thread wakes every waiter, logs once at warning level, reconnects with backoff
 * (100 ms doubling up to 1 s), logs the recovery at info level and wakes every waiter again, since commits meanwhile
 * went unseen; waiting reads poll meanwhile. The thread survives any {@link Throwable} its loop meets the same way.
 * {@link #close()} stops the thread and returns the connection.
 */
final class SqliteChangeListener implements WakeUpListener {

  private static final Logger LOG = LoggerFactory.getLogger(SqliteChangeListener.class);
  private static final long STOP_GRACE_MILLIS = 2_000;
  private static final Duration MIN_BACKOFF = Duration.ofMillis(100);
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(1);

  private final DataSource dataSource;
  private final Dialect dialect;
  private final String name;
  private final SessionWaiters waiters;
  private final SessionFingerprints fingerprints;
  private final long intervalNanos;
  private final Thread thread;
  private volatile boolean running = true;
  /** Touched by the polling thread only (and by {@link #start} before it starts). */
  private Connection connection;
  private long dataVersion;
  private boolean fellBack;
  /** The fingerprint of each waited session as last read; touched by the polling thread only. */
  private final Map<String, String> recorded = new HashMap<>();

  private SqliteChangeListener(DataSource dataSource, Dialect dialect, String name, SessionWaiters waiters,
      SessionFingerprints fingerprints, Duration interval) {
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.name = name;
    this.waiters = waiters;
    this.fingerprints = fingerprints;
    this.intervalNanos = interval.toNanos();
    this.thread = BackgroundThreads.create("change-listener", name,
        "waiting reads of this store are no longer woken by other instances' commits and poll instead",
        this::pollLoop);
  }

  /**
   * Reads the change counter before returning, so that no commit after this call is missed; if that fails, logs a
   * warning and keeps trying in the background. Never fails.
   *
   * @param interval how often the change counter is read
   */
  static WakeUpListener start(DataSource dataSource, Dialect dialect, String name, SessionWaiters waiters,
      SessionFingerprints fingerprints, Duration interval) {
    SqliteChangeListener listener = new SqliteChangeListener(dataSource, dialect, name, waiters, fingerprints,
        interval);
    try {
      listener.connect();
    } catch (SQLException | RuntimeException e) {
      listener.fallBack(e);
    }
    listener.thread.start();
    return listener;
  }

  private void connect() throws SQLException {
    Connection fresh = dataSource.getConnection();
    try {
      dialect.prepareConnection(fresh);
      dataVersion = read(fresh);
    } catch (SQLException | RuntimeException e) {
      closeQuietly(fresh);
      throw e;
    }
    connection = fresh;
  }

  private static long read(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
         ResultSet row = statement.executeQuery("PRAGMA data_version")) {
      row.next();
      return row.getLong(1);
    }
  }

  private void pollLoop() {
    Duration backoff = MIN_BACKOFF;
    while (running) {
      try {
        if (connection == null) {
          connect();
          recovered();
          backoff = MIN_BACKOFF;
        }
        LockSupport.parkNanos(this, intervalNanos);
        if (!running) {
          break;
        }
        look();
      } catch (Throwable e) { // an Error too: the thread must outlive it, or wake-ups would stop unseen
        if (!running) {
          break;
        }
        fallBack(e);
        release();
        wakeAll();
        LockSupport.parkNanos(this, backoff.toNanos());
        backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
      }
    }
    release();
  }

  /**
   * One look at the change counter: when it moved, wakes the waited sessions whose fingerprint changed (or that have
   * none recorded); when it stands, records the fingerprints the waited sessions lack.
   */
  private void look() throws SQLException {
    long current = read(connection);
    Set<String> waited = waiters.waitedSessions();
    recorded.keySet().retainAll(waited);
    if (current != dataVersion) {
      dataVersion = current;
      Map<String, String> now = fingerprints.read(connection, waited);
      for (String sessionId : waited) {
        String fingerprint = now.getOrDefault(sessionId, SessionFingerprints.ABSENT);
        if (!fingerprint.equals(recorded.put(sessionId, fingerprint))) {
          waiters.wake(sessionId);
        }
      }
      return;
    }
    Set<String> unrecorded = new HashSet<>(waited);
    unrecorded.removeAll(recorded.keySet());
    if (unrecorded.isEmpty()) {
      return;
    }
    Map<String, String> baseline = fingerprints.read(connection, unrecorded);
    if (read(connection) == dataVersion) {
      unrecorded.forEach(sessionId -> recorded.put(sessionId, baseline.getOrDefault(sessionId,
          SessionFingerprints.ABSENT)));
    }
  }

  /** Wakes every waiting read and forgets every fingerprint: after commits may have gone unseen. */
  private void wakeAll() {
    recorded.clear();
    waiters.wakeAll();
  }

  /** The connection failed or could not be had: warns once per outage, then logs at debug. */
  private void fallBack(Throwable failure) {
    if (!fellBack) {
      fellBack = true;
      FailureLog.warn(LOG, failure, "session-store: cannot read the change counter of {}; waiting reads of this"
          + " store poll until it can again; reconnecting", name);
    } else {
      LOG.debug("session-store: reconnecting to read the change counter of {} failed", name, failure);
    }
  }

  private void recovered() {
    if (fellBack) {
      fellBack = false;
      LOG.info("session-store: reading the change counter of {} again; waiting reads wake on commits again", name);
    }
    wakeAll();
  }

  private void release() {
    if (connection != null) {
      closeQuietly(connection);
      connection = null;
    }
  }

  @Override
  public void close() {
    if (!running) {
      return;
    }
    running = false;
    LockSupport.unpark(thread);
    try {
      thread.join(STOP_GRACE_MILLIS);
      if (thread.isAlive()) {
        LOG.warn("session-store: the change listener of {} did not stop in time; it stops once its connection"
            + " answers", name);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException | RuntimeException e) {
      LOG.debug("session-store: closing the change listener's connection failed", e);
    }
  }
}
