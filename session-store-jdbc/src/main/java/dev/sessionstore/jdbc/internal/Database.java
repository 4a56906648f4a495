package dev.sessionstore.jdbc.internal;

import dev.sessionstore.ConflictException;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.OutcomeUnknownException;
import dev.sessionstore.SessionStoreException;
import dev.sessionstore.StoreClosedException;
import dev.sessionstore.StoreFailureException;
import dev.sessionstore.spi.RetryCause;
import dev.sessionstore.spi.SettledOutcome;
import dev.sessionstore.spi.StoreEventHub;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Collections;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Borrows connections from the data source for one unit of work, runs it again when that is safe and useful, and
 * turns driver errors into the store's exceptions, so that every failure says truthfully what was written.
 * {@link #transaction} runs work atomically (commit on success, rollback on any failure); {@link #autoCommit} runs
 * work whose statements each stand alone; {@link #read} runs work that writes nothing.
 *
 * <h2>What a failure means</h2>
 *
 * <p>A failure the {@link Dialect} classifies as {@link SqlFailure.Kind#CONNECTION} (connection lost, server shutting
 * down or restarting) leaves the work in one of two states, by when it struck:
 * <ul>
 *   <li><b>nothing written</b>: while borrowing the connection, or inside a transaction before {@code COMMIT} was
 *       sent (the server rolls back a transaction whose connection dies), or during a read;</li>
 *   <li><b>outcome unknown</b>: while {@code COMMIT} was sent and answered, or while an auto-committed statement
 *       ran: the server may have committed before the connection died, and the driver cannot tell.</li>
 * </ul>
 * Either way the work is tried again on a fresh connection, the first time at once, then with a growing pause
 * ({@link RetryPause}) while the database comes back, for at most the store's retry timeout (for {@link #read} with
 * a deadline: up to that deadline). A nothing-written failure may always run again: it is a first attempt. An unknown
 * outcome is settled as the work's {@link UnknownOutcome} says: idempotent work runs again and returns what is
 * stored; work whose result says what it changed asks the database whether its transaction committed, returns the
 * result it computed if so, and runs again only if not ({@link UnknownOutcome#ownResult()}); checkable work reads
 * the stored state first and runs again only if it was not applied; other work reports
 * {@link OutcomeUnknownException} at once. A doubt not settled in time is reported the same way, never as a
 * plain {@link StoreFailureException}, which always means that nothing was written. Deadlocks and serialization
 * failures run the work again after a short jittered pause ({@link RetryPause#afterConflict}), a few times within
 * the retry timeout.
 *
 * <p>Every other failure becomes the exception its {@link SqlFailure.Kind} names, with
 * {@link StoreFailureException#isRetryable()} telling the caller whether the same call may succeed later.
 *
 * <p>Exceptions the work throws itself ({@link SessionStoreException}) pass through unchanged after the rollback.
 * Once closed with the store, work under way stops retrying: a failure it would have run again after ends it with
 * {@link StoreClosedException} (the failure as its cause) when nothing was written, and with
 * {@link OutcomeUnknownException} when its outcome is unknown. Calls after close never reach it: the validating
 * layer in front of the store refuses them. Thread-safe.
 *
 * <p>Each run again is reported to the store's {@link #events() hub} as a retry with its cause, before it runs, and
 * each doubt settled here as a settled outcome, once per call; a doubt reported to the caller is not.
 */
final class Database {

  private static final Logger LOG = LoggerFactory.getLogger(Database.class);
  private static final int MAX_CONFLICT_ATTEMPTS = 5;

  private final DataSource dataSource;
  private final Dialect dialect;
  private final Duration retryTimeout;
  /** The longest a statement may run, {@link Duration#ZERO} for no limit. */
  private final Duration statementTimeout;
  /** The driver connections whose session has the statement timeout set, by identity; forgotten when collected. */
  private final Set<Connection> limited = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));
  /** Where the dialect {@linkplain Dialect#writesOneAtATime() writes one at a time}: the queue of write transactions. */
  private final Lock writers;
  private final StoreEventHub events = new StoreEventHub(failure -> LOG.warn(
      "session-store: a store event listener failed; its later failures are not logged", failure));
  private volatile boolean closed;

  /**
   * @param retryTimeout how long a unit of work keeps trying after connection failures, from its start
   */
  Database(DataSource dataSource, Dialect dialect, Duration retryTimeout) {
    this(dataSource, dialect, retryTimeout, Duration.ZERO);
  }

  /**
   * @param retryTimeout     how long a unit of work keeps trying after connection failures, from its start
   * @param statementTimeout the longest one statement may run before the database cancels it (a retryable
   *                         {@link StoreFailureException}), {@link Duration#ZERO} for no limit; only where the
   *                         dialect {@linkplain Dialect#limitsStatements() limits statements}
   */
  Database(DataSource dataSource, Dialect dialect, Duration retryTimeout, Duration statementTimeout) {
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.retryTimeout = retryTimeout;
    this.statementTimeout = statementTimeout;
    this.writers = dialect.writesOneAtATime() ? new ReentrantLock(true) : null;
  }

  Dialect dialect() {
    return dialect;
  }

  /** Where the store reports its internal events: retries and settled outcomes here, deadlines and waits elsewhere. */
  StoreEventHub events() {
    return events;
  }

  /** Stops the retries of work under way, and tells waits to end ({@link #isClosed()}). */
  void close() {
    closed = true;
  }

  /** Whether the store was closed: a wait under way returns what it has. */
  boolean isClosed() {
    return closed;
  }

  /**
   * Runs idempotent {@code work} in one transaction: run again after it was committed, it must write nothing more
   * and return what is stored ({@link UnknownOutcome#runAgain()}).
   *
   * @param action what the work does, for error messages ("append to session s-1")
   */
  <T> T transaction(String action, SqlWork<T> work) {
    return transaction(action, UnknownOutcome.runAgain(), work);
  }

  /** Runs {@code work} in one transaction; {@code ifUnknown} settles a lost commit. */
  <T> T transaction(String action, UnknownOutcome<T> ifUnknown, SqlWork<T> work) {
    return run(action, Mode.TRANSACTION, ifUnknown, retryDeadline(), work);
  }

  /**
   * Runs idempotent {@code work} with auto-commit on: each statement is its own transaction. Run again after its
   * statements were committed, it must write nothing more and return what is stored.
   */
  <T> T autoCommit(String action, SqlWork<T> work) {
    return autoCommit(action, UnknownOutcome.runAgain(), work);
  }

  /** Runs {@code work} with auto-commit on; {@code ifUnknown} settles a connection lost while it ran. */
  <T> T autoCommit(String action, UnknownOutcome<T> ifUnknown, SqlWork<T> work) {
    return run(action, Mode.AUTO_COMMIT, ifUnknown, retryDeadline(), work);
  }

  /**
   * Runs idempotent {@code work} that begins and ends a write transaction itself, by statements on a connection left
   * in auto-commit ({@link Dialect#beginOwnWrites()}, then {@code COMMIT} or {@code ROLLBACK}): two statements of
   * transaction control where the driver's own begin, commit and return to auto-commit take more. It queues with the
   * write transactions where the dialect {@linkplain Dialect#writesOneAtATime() writes one at a time}. The work must
   * end its transaction on every path it leaves by; run again after its commit, it must write nothing more and return
   * what is stored.
   */
  <T> T ownTransaction(String action, SqlWork<T> work) {
    return run(action, Mode.OWN_TRANSACTION, UnknownOutcome.runAgain(), retryDeadline(), work);
  }

  /** Runs {@code work}, which writes nothing, with auto-commit on. */
  <T> T read(String action, SqlWork<T> work) {
    return read(action, retryDeadline(), work);
  }

  /**
   * Runs {@code work}, which writes nothing, with auto-commit on, retrying after connection failures until
   * {@code deadline} (a {@link System#nanoTime()} value) rather than for the store's retry timeout.
   */
  <T> T read(String action, long deadline, SqlWork<T> work) {
    return run(action, Mode.READ, UnknownOutcome.runAgain(), deadline, work);
  }

  /**
   * Runs {@code work}, which writes nothing, in one read-only transaction whose statements all read one snapshot
   * ({@link Dialect#snapshotTransaction()}).
   */
  <T> T snapshot(String action, SqlWork<T> work) {
    String snapshot = dialect.snapshotTransaction();
    return run(action, Mode.SNAPSHOT, UnknownOutcome.runAgain(), retryDeadline(), connection -> {
      if (!snapshot.isEmpty()) {
        try (Statement statement = connection.createStatement()) {
          statement.execute(snapshot);
        }
      }
      return work.run(connection);
    });
  }

  private long retryDeadline() {
    return System.nanoTime() + retryTimeout.toNanos();
  }

  private <T> T run(String action, Mode mode, UnknownOutcome<T> ifUnknown, long deadline, SqlWork<T> work) {
    RetryPause reconnecting = RetryPause.afterLostConnection(deadline);
    RetryPause conflicting = RetryPause.afterConflict(deadline);
    SQLException doubt = null; // the failure that left the work's outcome unknown, while unsettled
    boolean ownResult = mode == Mode.TRANSACTION && ifUnknown instanceof UnknownOutcome.OwnResult
        && dialect.knowsCommitStatus();
    Committing<T> inDoubt = null; // the transaction whose commit lost its connection, while its fate is unknown
    int conflicts = 0;
    while (true) {
      Failed failed;
      try {
        if (inDoubt != null) {
          long transactionId = inDoubt.transactionId;
          CommitStatus status = attempt(Mode.READ, connection -> dialect.commitStatus(connection, transactionId));
          if (status == CommitStatus.COMMITTED) {
            events.outcomeSettled(SettledOutcome.APPLIED);
            LOG.debug("session-store: {}: outcome was unknown ({}); the database says it committed", action,
                describe(doubt));
            return inDoubt.result;
          }
          if (status == CommitStatus.ABORTED) {
            events.outcomeSettled(SettledOutcome.NOT_APPLIED);
            LOG.debug("session-store: {}: outcome was unknown ({}); the database says it rolled back, running it"
                + " again", action, describe(doubt));
            inDoubt = null;
            doubt = null;
          } else if (status == CommitStatus.IN_PROGRESS && !closed && reconnecting.pause()) {
            continue;
          } else {
            throw unknown(action, doubt, doubt);
          }
        }
        if (doubt != null && ifUnknown instanceof UnknownOutcome.Check<T> check) {
          Optional<T> applied = attempt(Mode.READ, check.applied());
          if (applied.isPresent()) {
            events.outcomeSettled(SettledOutcome.APPLIED);
            LOG.debug("session-store: {}: outcome was unknown ({}); the stored state shows it applied", action,
                describe(doubt));
            return applied.get();
          }
          events.outcomeSettled(SettledOutcome.NOT_APPLIED);
          LOG.debug("session-store: {}: outcome was unknown ({}); the stored state shows it not applied, running it"
              + " again", action, describe(doubt));
          doubt = null;
        }
        T result = attempt(mode, work, ownResult ? new Committing<>() : null);
        if (doubt != null) {
          events.outcomeSettled(SettledOutcome.RAN_AGAIN);
          LOG.debug("session-store: {}: outcome was unknown ({}); settled by running it again", action,
              describe(doubt));
        }
        return result;
      } catch (Failed e) {
        failed = e;
      }
      SQLException error = failed.error;
      SqlFailure failure = classify(failed);
      if (failure.kind() == SqlFailure.Kind.CONNECTION && failed.mayBeApplied) {
        if (ifUnknown instanceof UnknownOutcome.Report) {
          throw unknown(action, error, error);
        }
        if (failed.committing != null && failed.committing.transactionId == NOTHING_WRITTEN) {
          events.outcomeSettled(SettledOutcome.APPLIED);
          LOG.debug("session-store: {}: the connection was lost at commit ({}), but the work had written nothing",
              action, describe(error));
          @SuppressWarnings("unchecked")
          T result = (T) failed.committing.result;
          return result;
        }
        if (failed.committing != null) {
          @SuppressWarnings("unchecked")
          Committing<T> committing = (Committing<T>) failed.committing;
          inDoubt = committing;
          doubt = error;
        }
        if (doubt == null) {
          doubt = error;
        }
      }
      boolean conflicted = failure.kind() == SqlFailure.Kind.TRANSACTION_ROLLBACK
          && ++conflicts < MAX_CONFLICT_ATTEMPTS;
      boolean disconnected = failure.kind() == SqlFailure.Kind.CONNECTION;
      if ((conflicted || disconnected) && closed) {
        throw doubt == null ? new StoreClosedException(translate(action, error, failure))
            : unknown(action, error, doubt);
      }
      if (conflicted && conflicting.pause()) {
        events.retried(conflictCause(failure));
        LOG.debug("session-store: {} hit {} (attempt {}), running it again", action, failure.sqlState(), conflicts);
        continue;
      }
      if (disconnected && reconnecting.pause()) {
        events.retried(RetryCause.CONNECTION);
        LOG.debug("session-store: {} lost its connection ({}), trying again", action, describe(error));
        continue;
      }
      if (doubt != null && failure.kind() != SqlFailure.Kind.UNIQUE_VIOLATION
          && failure.kind() != SqlFailure.Kind.INVALID_VALUE && failure.kind() != SqlFailure.Kind.LIMIT_EXCEEDED) {
        throw unknown(action, error, doubt);
      }
      throw translate(action, error, failure);
    }
  }

  /** The cause of a transaction rolled back by the database, by its SQLState (none on SQLite: busy or locked). */
  private static RetryCause conflictCause(SqlFailure failure) {
    if ("40001".equals(failure.sqlState())) {
      return RetryCause.SERIALIZATION;
    }
    return "40P01".equals(failure.sqlState()) ? RetryCause.DEADLOCK : RetryCause.CONFLICT;
  }

  private <T> T attempt(Mode mode, SqlWork<T> work) throws Failed {
    return attempt(mode, work, null);
  }

  /**
   * One attempt on a connection of its own; a write transaction first takes its turn where writes queue. With
   * {@code committing}, a transaction notes there its result and its id before {@code COMMIT}.
   */
  private <T> T attempt(Mode mode, SqlWork<T> work, Committing<T> committing) throws Failed {
    if (writers == null || mode != Mode.TRANSACTION && mode != Mode.OWN_TRANSACTION) {
      return attemptOnConnection(mode, work, committing);
    }
    writers.lock();
    try {
      return attemptOnConnection(mode, work, committing);
    } finally {
      writers.unlock();
    }
  }

  private <T> T attemptOnConnection(Mode mode, SqlWork<T> work, Committing<T> committing) throws Failed {
    Connection connection;
    try {
      connection = dataSource.getConnection();
    } catch (SQLException e) {
      throw new Failed(e, false, false);
    }
    try {
      try {
        dialect.prepareConnection(connection);
        limitStatements(connection);
      } catch (SQLException e) {
        throw failed(connection, e, false);
      }
      return switch (mode) {
        case TRANSACTION -> inTransaction(connection, true, work, committing);
        case SNAPSHOT -> inTransaction(connection, false, work, null);
        case AUTO_COMMIT, OWN_TRANSACTION, READ -> inAutoCommit(connection, mode, work);
      };
    } finally {
      release(connection);
    }
  }

  /**
   * Sets the statement timeout on a connection's session once: the driver's connection behind a pool's wrapper is
   * remembered, so a pooled connection is set when first lent, not on every loan. Set in auto-commit only, where it
   * outlives the statement.
   */
  private void limitStatements(Connection connection) throws SQLException {
    if (statementTimeout.isZero()) {
      return;
    }
    Connection driverConnection = connection.unwrap(Connection.class);
    if (!limited.contains(driverConnection) && connection.getAutoCommit()) {
      dialect.limitStatements(connection, statementTimeout);
      limited.add(driverConnection);
    }
  }

  /**
   * Runs {@code work} in a transaction; one that {@code writes} begins as the dialect says writes begin. With
   * {@code committing}, the result and the transaction's id are noted there before {@code COMMIT}, and a failed
   * commit carries them.
   */
  private <T> T inTransaction(Connection connection, boolean writes, SqlWork<T> work, Committing<T> committing)
      throws Failed {
    boolean autoCommit;
    try {
      autoCommit = connection.getAutoCommit();
      if (autoCommit) {
        connection.setAutoCommit(false);
      }
    } catch (SQLException e) {
      throw failed(connection, e, false);
    }
    T result;
    try {
      if (writes) {
        dialect.beginWrites(connection);
      }
      result = work.run(connection);
      if (committing != null) {
        committing.result = result;
        committing.transactionId = dialect.writingTransaction(connection).orElse(NOTHING_WRITTEN);
      }
    } catch (SQLException e) {
      rollback(connection, autoCommit, e);
      throw failed(connection, e, false);
    } catch (RuntimeException | Error e) {
      rollback(connection, autoCommit, e);
      throw e;
    }
    try {
      connection.commit();
    } catch (SQLException e) {
      rollback(connection, autoCommit, e);
      Failed failed = failed(connection, e, true);
      failed.committing = committing;
      throw failed;
    }
    try {
      connection.setAutoCommit(autoCommit);
    } catch (SQLException e) {
      LOG.debug("session-store: restoring auto-commit after a commit failed", e); // committed all the same
    }
    return result;
  }

  private static <T> T inAutoCommit(Connection connection, Mode mode, SqlWork<T> work) throws Failed {
    try {
      if (!connection.getAutoCommit()) {
        connection.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw failed(connection, e, false);
    }
    try {
      return work.run(connection);
    } catch (SQLException e) {
      throw failed(connection, e, mode == Mode.AUTO_COMMIT || mode == Mode.OWN_TRANSACTION);
    }
  }

  private static void rollback(Connection connection, boolean autoCommit, Throwable failure) {
    try {
      connection.rollback();
      connection.setAutoCommit(autoCommit);
    } catch (SQLException rollbackFailure) {
      failure.addSuppressed(rollbackFailure);
    }
  }

  private static Failed failed(Connection connection, SQLException error, boolean mayBeApplied) {
    return new Failed(error, mayBeApplied, isClosed(connection));
  }

  /** Whether the connection, or the driver's connection behind a pool's wrapper, is closed. */
  private static boolean isClosed(Connection connection) {
    try {
      return connection.isClosed() || connection.unwrap(Connection.class).isClosed();
    } catch (SQLException e) {
      return true;
    }
  }

  private static void release(Connection connection) {
    try {
      connection.close();
    } catch (SQLException e) {
      LOG.debug("session-store: returning a connection failed", e);
    }
  }

  /** The dialect's reading, where an error without a SQLState on a closed connection counts as a lost connection. */
  private SqlFailure classify(Failed failed) {
    SqlFailure failure = dialect.classify(failed.error);
    if (failure.kind() == SqlFailure.Kind.BACKEND && failure.sqlState() == null && failed.connectionClosed) {
      return SqlFailure.of(SqlFailure.Kind.CONNECTION, null);
    }
    return failure;
  }

  private SessionStoreException translate(String action, SQLException error, SqlFailure failure) {
    return switch (failure.kind()) {
      case UNIQUE_VIOLATION, INTEGRITY_VIOLATION -> new ConflictException(action + ": " + describe(error));
      case INVALID_VALUE -> new InvalidArgumentException("value",
          "the database rejected a value in " + action + ": " + describe(error));
      case LIMIT_EXCEEDED -> new InvalidArgumentException("value",
          "a value or the statement of " + action + " exceeds a limit of the database (PostgreSQL: 1 GB for one"
              + " value or one statement's parameters): " + describe(error) + "; write less at once");
      case TRANSACTION_ROLLBACK, CONNECTION, TRANSIENT, BACKEND -> new StoreFailureException(
          action + " failed: " + describe(error), failure.kind().retryable(), error);
    };
  }

  private OutcomeUnknownException unknown(String action, SQLException last, SQLException doubt) {
    StringBuilder message = new StringBuilder(action)
        .append(" may or may not have been applied: the connection was lost while it was committed: ")
        .append(describe(doubt));
    if (last != doubt) {
      message.append("; finding out failed: ").append(describe(last));
    }
    message.append("; retrying with the same ids is safe");
    OutcomeUnknownException exception = new OutcomeUnknownException(message.toString(), last);
    if (last != doubt) {
      exception.addSuppressed(doubt);
    }
    return exception;
  }

  /**
   * {@code [SQLState] message} of the error, followed by the message of the first cause that says something else
   * (a pool's timeout names the database's refusal there).
   */
  private String describe(SQLException error) {
    StringBuilder text = new StringBuilder();
    if (error.getSQLState() != null) {
      text.append('[').append(error.getSQLState()).append("] ");
    }
    text.append(dialect.message(error));
    for (Throwable cause = error.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
      if (cause.getMessage() != null && !cause.getMessage().equals(error.getMessage())) {
        text.append(" (caused by ");
        if (cause instanceof SQLException sql && sql.getSQLState() != null) {
          text.append('[').append(sql.getSQLState()).append("] ");
        }
        text.append(cause instanceof SQLException sql ? dialect.message(sql) : cause.getMessage()).append(')');
        break;
      }
    }
    return text.toString();
  }

  private enum Mode { TRANSACTION, SNAPSHOT, AUTO_COMMIT, OWN_TRANSACTION, READ }

  /** {@link Committing#transactionId} of a transaction that wrote nothing. */
  private static final long NOTHING_WRITTEN = -1;

  /** What a transaction settled by its own result ({@link UnknownOutcome#ownResult()}) noted before its commit. */
  private static final class Committing<T> {
    private T result;
    /** Its id, or {@link #NOTHING_WRITTEN}. */
    private long transactionId = NOTHING_WRITTEN;
  }

  /** A failed attempt: the driver's error, and whether the work may have been applied before it struck. */
  private static final class Failed extends Exception {

    private final transient SQLException error;
    private final boolean mayBeApplied;
    private final boolean connectionClosed;
    /** For a failed commit of a transaction settled by its own result: what it noted before the commit. */
    private Committing<?> committing;

    Failed(SQLException error, boolean mayBeApplied, boolean connectionClosed) {
      super(null, null, false, false);
      this.error = error;
      this.mayBeApplied = mayBeApplied;
      this.connectionClosed = connectionClosed;
    }
  }
}
