package dev.sessionstore.jdbc.internal;

import java.util.Optional;

/**
 * How a unit of work settles a doubt about its own outcome: when the connection is lost while the database commits
 * it (or while an auto-committed statement runs), the work may or may not have been applied, and {@link Database}
 * asks this what to do once it has a connection again.
 *
 * @param <T> what the work returns
 */
sealed interface UnknownOutcome<T> {

  /**
   * The work is idempotent: run again after it was applied, it writes nothing more and returns what is stored (an
   * append replays its event ids, an upsert writes the same row again). The store runs it again.
   */
  @SuppressWarnings("unchecked")
  static <T> UnknownOutcome<T> runAgain() {
    return (UnknownOutcome<T>) RunAgain.INSTANCE;
  }

  /**
   * The work is not idempotent as is, but what is stored tells whether it was applied: {@code applied} reads it (in
   * auto-commit) and returns the work's result if it was applied, or empty if it was not, in which case the store
   * runs the work again.
   */
  static <T> UnknownOutcome<T> check(SqlWork<Optional<T>> applied) {
    return new Check<>(applied);
  }

  /**
   * Nothing tells whether the work was applied: the store reports {@link dev.sessionstore.OutcomeUnknownException}
   * at once.
   */
  @SuppressWarnings("unchecked")
  static <T> UnknownOutcome<T> report() {
    return (UnknownOutcome<T>) Report.INSTANCE;
  }

  /** See {@link #runAgain()}. */
  record RunAgain<T>() implements UnknownOutcome<T> {
    private static final RunAgain<?> INSTANCE = new RunAgain<>();
  }

  /** See {@link #check(SqlWork)}. */
  record Check<T>(SqlWork<Optional<T>> applied) implements UnknownOutcome<T> {
  }

  /** See {@link #report()}. */
  record Report<T>() implements UnknownOutcome<T> {
    private static final Report<?> INSTANCE = new Report<>();
  }
}
