package dev.sessionstore.spi;

/**
 * How a store settled, by itself, a call whose commit outcome was unknown (the connection was lost while the database
 * committed): reported once per settled call through {@link StoreEvents#outcomeSettled}. A doubt the store could not
 * settle reaches the caller as {@link dev.sessionstore.OutcomeUnknownException} and is not reported here.
 */
public enum SettledOutcome {

  /**
   * The work had been applied (the database said its transaction committed, the stored state showed it, or it had
   * written nothing): the store returned its result without running it again.
   */
  APPLIED("applied"),

  /**
   * The work had not been applied (the database said its transaction rolled back, or the stored state showed it
   * missing): the store ran it again as a first attempt.
   */
  NOT_APPLIED("not-applied"),

  /**
   * The work is idempotent, so the store ran it again without asking, and the second run returned what is stored:
   * whether the first had been applied is not known, and need not be.
   */
  RAN_AGAIN("ran-again");

  private final String tag;

  SettledOutcome(String tag) {
    this.tag = tag;
  }

  /** The value of a meter's {@code result} tag for this outcome: lower case, fixed ({@code "applied"}, ...). */
  public String tag() {
    return tag;
  }
}
