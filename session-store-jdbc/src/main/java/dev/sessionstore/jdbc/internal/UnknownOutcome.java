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
   * The work's result says what this very call changed (a resolution won, a deadline cancelled, rows deleted), so a
   * second run would answer for itself, not for the first: run in a {@linkplain Database#transaction transaction},
   * the store reads the transaction's id just before {@code COMMIT} ({@link Dialect#writingTransaction}), keeps the
   * result, and when the commit loses its connection asks the database what became of that transaction: committed,
   * the kept result is returned (this call did it); rolled back, the work runs again as a first attempt; still in
   * progress (the server has not yet noticed the lost client), asked again after a pause within the retry timeout,
   * then reported as {@link dev.sessionstore.OutcomeUnknownException}. A transaction that wrote nothing returns its
   * result whatever became of its commit. Where the dialect cannot tell ({@link Dialect#knowsCommitStatus()}), and
   * in auto-commit, the work runs again as for {@link #runAgain()}: its writes must be idempotent.
   */
  @SuppressWarnings("unchecked")
  static <T> UnknownOutcome<T> ownResult() {
    return (UnknownOutcome<T>) OwnResult.INSTANCE;
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

  /** See {@link #ownResult()}. */
  record OwnResult<T>() implements UnknownOutcome<T> {
    private static final OwnResult<?> INSTANCE = new OwnResult<>();
  }

  /** See {@link #check(SqlWork)}. */
  record Check<T>(SqlWork<Optional<T>> applied) implements UnknownOutcome<T> {
  }

  /** See {@link #report()}. */
  record Report<T>() implements UnknownOutcome<T> {
    private static final Report<?> INSTANCE = new Report<>();
  }
}
