package dev.sessionstore.micrometer;

import dev.sessionstore.ConflictException;
import dev.sessionstore.DuplicateEventException;
import dev.sessionstore.ImportOutcome;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.OutcomeUnknownException;
import dev.sessionstore.Resolution;
import dev.sessionstore.StaleResolutionException;
import dev.sessionstore.StepOutcome;
import java.util.Locale;

/**
 * How an operation of the store ended, as the {@code outcome} tag of its observation: a closed, low-cardinality set.
 * Expected outcomes the store returns as values count as they would as exceptions: a stale resolution
 * ({@link Resolution.Stale}) or a rejected step ({@link StepOutcome.Rejected}) is {@link #STALE}, an import that
 * found other content ({@link ImportOutcome#CONFLICT}) is {@link #CONFLICT}.
 */
public enum Outcome {
  /** The operation did what was asked (replays of stored writes included). */
  OK,
  /** A compare-and-set lost: an expected seq, a name taken, a fenced writer, an import over other content. */
  CONFLICT,
  /** An event id reused with different content. */
  DUPLICATE,
  /** A tool-call resolution found its call no longer pending as asked. */
  STALE,
  /** The operation named something the store does not hold. */
  NOT_FOUND,
  /** An argument was rejected; nothing was written. */
  INVALID,
  /** The backend failed at a moment that leaves the write's outcome unknown; a retry with the same ids settles it. */
  UNKNOWN_OUTCOME,
  /** Any other failure: the backend, a closed store, a capability the store lacks. */
  FAILURE;

  private final String tagValue = name().toLowerCase(Locale.ROOT).replace('_', '-');

  /** The tag value: the name in lower case with hyphens ({@code not-found}, {@code unknown-outcome}). */
  public String tagValue() {
    return tagValue;
  }

  /** The outcome of an operation that returned {@code result} (which may be null). */
  public static Outcome of(Object result) {
    if (result instanceof Resolution.Stale || result instanceof StepOutcome.Rejected) {
      return STALE;
    }
    return result == ImportOutcome.CONFLICT ? CONFLICT : OK;
  }

  /** The outcome of an operation that threw {@code failure}. */
  public static Outcome ofFailure(Throwable failure) {
    if (failure instanceof DuplicateEventException) {
      return DUPLICATE;
    }
    if (failure instanceof StaleResolutionException) {
      return STALE;
    }
    if (failure instanceof ConflictException) {
      return CONFLICT;
    }
    if (failure instanceof NotFoundException) {
      return NOT_FOUND;
    }
    if (failure instanceof InvalidArgumentException) {
      return INVALID;
    }
    return failure instanceof OutcomeUnknownException ? UNKNOWN_OUTCOME : FAILURE;
  }
}
