package dev.sessionstore.jdbc.internal;

/**
 * What a failed statement means for the store, as the {@link Dialect} reads the driver's error: the store turns it
 * into the matching {@link dev.sessionstore.SessionStoreException}.
 *
 * @param kind       the class of failure
 * @param constraint for {@link Kind#UNIQUE_VIOLATION}, the violated constraint's name, or {@code null}
 */
record SqlFailure(Kind kind, String constraint) {

  enum Kind {
    /** A unique or primary key constraint rejected a row: a conflict with existing state. */
    UNIQUE_VIOLATION,
    /** The database rejected a value (out of range, not representable): bad input. */
    INVALID_VALUE,
    /** Deadlock or serialization failure: the transaction was rolled back and may be run again. */
    RETRYABLE,
    /** Anything else: the backend failed. */
    BACKEND
  }

  /** Whether this is a violation of the named constraint. */
  boolean violates(String constraintName) {
    return kind == Kind.UNIQUE_VIOLATION && constraintName.equals(constraint);
  }
}
