package dev.sessionstore.jdbc.internal;

import dev.sessionstore.ConflictException;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.SessionStoreException;
import dev.sessionstore.StoreFailureException;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Borrows connections from the data source for one unit of work and turns driver errors into the store's
 * exceptions. {@link #transaction} runs work atomically (commit on success, rollback on any failure) and runs it
 * again after a deadlock or serialization failure; {@link #autoCommit} runs work whose statements each stand alone.
 *
 * <p>Exceptions the work throws itself ({@link SessionStoreException}) pass through unchanged after the rollback.
 * Once closed with the store, it refuses new work with {@link IllegalStateException}.
 */
final class Database {

  private static final Logger LOG = LoggerFactory.getLogger(Database.class);
  private static final int MAX_ATTEMPTS = 5;

  private final DataSource dataSource;
  private final Dialect dialect;
  private volatile boolean closed;

  Database(DataSource dataSource, Dialect dialect) {
    this.dataSource = dataSource;
    this.dialect = dialect;
  }

  Dialect dialect() {
    return dialect;
  }

  /** Refuses every later unit of work; work under way finishes. */
  void close() {
    closed = true;
  }

  /**
   * Fails if the store was closed.
   *
   * @throws IllegalStateException after {@link #close()}
   */
  void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("this session store is closed");
    }
  }

  /**
   * Runs {@code work} in one transaction.
   *
   * @param action what the work does, for error messages ("append to session s-1")
   */
  <T> T transaction(String action, SqlWork<T> work) {
    ensureOpen();
    for (int attempt = 1; ; attempt++) {
      try (Connection connection = dataSource.getConnection()) {
        return inTransaction(connection, work);
      } catch (SQLException e) {
        SqlFailure failure = dialect.classify(e);
        if (failure.kind() == SqlFailure.Kind.RETRYABLE && attempt < MAX_ATTEMPTS) {
          LOG.debug("session-store: {} hit {} (attempt {}), running it again", action, e.getSQLState(), attempt);
          continue;
        }
        throw translate(action, e, failure);
      }
    }
  }

  /** Runs {@code work} with auto-commit on: each statement is its own transaction. */
  <T> T autoCommit(String action, SqlWork<T> work) {
    ensureOpen();
    try (Connection connection = dataSource.getConnection()) {
      if (!connection.getAutoCommit()) {
        connection.setAutoCommit(true);
      }
      return work.run(connection);
    } catch (SQLException e) {
      throw translate(action, e, dialect.classify(e));
    }
  }

  private static <T> T inTransaction(Connection connection, SqlWork<T> work) throws SQLException {
    boolean autoCommit = connection.getAutoCommit();
    if (autoCommit) {
      connection.setAutoCommit(false);
    }
    T result;
    try {
      result = work.run(connection);
      connection.commit();
    } catch (SQLException | RuntimeException | Error e) {
      try {
        connection.rollback();
        connection.setAutoCommit(autoCommit);
      } catch (SQLException rollbackFailure) {
        e.addSuppressed(rollbackFailure);
      }
      throw e;
    }
    connection.setAutoCommit(autoCommit);
    return result;
  }

  private static SessionStoreException translate(String action, SQLException error, SqlFailure failure) {
    return switch (failure.kind()) {
      case UNIQUE_VIOLATION -> new ConflictException(action + ": " + error.getMessage());
      case INVALID_VALUE -> new InvalidArgumentException("value",
          "the database rejected a value in " + action + ": " + error.getMessage());
      case RETRYABLE, BACKEND -> new StoreFailureException("session-store: " + action + " failed", error);
    };
  }
}
