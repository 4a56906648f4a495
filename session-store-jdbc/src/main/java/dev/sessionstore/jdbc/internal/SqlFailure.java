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

  enum Kind {
    /** A unique or primary key constraint rejected a row: a conflict with existing state. */
    UNIQUE_VIOLATION,
    /** The database rejected a value (out of range, not representable): bad input. */
    INVALID_VALUE,
    /** Deadlock or serialization failure: the transaction was rolled back and may be run again. */
    RETRYABLE,
    /**
     * The connection failed, or the server is shutting down, restarting or not accepting connections yet: a
     * transaction that had not sent its {@code COMMIT} is rolled back; one that had may or may not be committed
     * (see {@link Database}). The work may succeed on a fresh connection once the database is back.
     */
    CONNECTION,
    /** Anything else: the backend failed, and running the work again is not expected to help. */
    BACKEND
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
