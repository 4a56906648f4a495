package dev.sessionstore.jdbc.internal;

/**
 * What a failed statement means for the store, as the {@link Dialect} reads the driver's error: the store turns it
 * into the matching {@link dev.sessionstore.SessionStoreException}, and {@link Database} decides from it whether the
 * work may run again.
 *
 * @param kind       the class of failure
 * @param sqlState   the driver's SQLState, or {@code null} when it gave none
 * @param constraint for {@link Kind#UNIQUE_VIOLATION}, the violated constraint's name, or {@code null}
 */
record SqlFailure(Kind kind, String sqlState, String constraint) {

  /** The classes of failure, each with the exception it becomes and whether a caller may retry it. */
  enum Kind {
    /**
     * A unique or primary key constraint rejected a row: a conflict with existing state
     * ({@link dev.sessionstore.ConflictException}).
     */
    UNIQUE_VIOLATION(false),
    /**
     * Another integrity constraint rejected a row because of what is stored (a foreign key whose row is gone, an
     * exclusion): a conflict with state another writer changed ({@link dev.sessionstore.ConflictException}).
     */
    INTEGRITY_VIOLATION(false),
    /**
     * The database rejected a value (out of range, not representable, null where it needs one, failing a check):
     * bad input ({@link dev.sessionstore.InvalidArgumentException}).
     */
    INVALID_VALUE(false),
    /**
     * A value or statement exceeds one of the database's own limits (PostgreSQL: 1 GB for one value or message):
     * bad input, however often it is sent ({@link dev.sessionstore.InvalidArgumentException} naming the limit).
     */
    LIMIT_EXCEEDED(false),
    /**
     * Deadlock or serialization failure: the transaction was rolled back and {@link Database} runs it again after a
     * short jittered pause, a few times; past them, a retryable {@link dev.sessionstore.StoreFailureException}.
     */
    TRANSACTION_ROLLBACK(true),
    /**
     * The connection failed, or the server is shutting down, restarting or not accepting connections yet: a
     * transaction that had not sent its {@code COMMIT} is rolled back; one that had may or may not be committed
     * (see {@link Database}). The work may succeed on a fresh connection once the database is back.
     */
    CONNECTION(true),
    /**
     * The database is up but cannot serve the work now: a statement or lock timeout, a cancelled statement, too
     * many connections, out of memory or disk, a read-only server (a standby during failover). Nothing was written;
     * the store does not retry it itself, the caller may later (a retryable
     * {@link dev.sessionstore.StoreFailureException}).
     */
    TRANSIENT(true),
    /**
     * Anything else: the backend or the deployment is broken (missing privileges, tables or database, an internal
     * error) and running the work again is not expected to help.
     */
    BACKEND(false);

    private final boolean retryable;

    Kind(boolean retryable) {
      this.retryable = retryable;
    }

    /** Whether the same call may succeed if made again later, unchanged. */
    boolean retryable() {
      return retryable;
    }
  }

  /** A failure of {@code kind} with no constraint. */
  static SqlFailure of(Kind kind, String sqlState) {
    return new SqlFailure(kind, sqlState, null);
  }

  /** Whether this is a violation of the named constraint. */
  boolean violates(String constraintName) {
    return kind == Kind.UNIQUE_VIOLATION && constraintName.equals(constraint);
  }
}
