package dev.sessionstore;

import java.util.List;
import java.util.Optional;

/**
 * The outcome of {@link SessionStore#commit}: the step was {@link Committed} whole, or {@link Rejected} whole because
 * at least one of its resolutions was stale, in which case nothing of it was written (guarantee
 * <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#16">16</a>). Other failures (seq conflict, reused event id, invalid input, unknown session, event or tool
 * call) are exceptions.
 *
 * <p>Read it without a cast or a pattern switch (Java 17):
 * <pre>{@code
 * StepOutcome outcome = store.commit(step);
 * long next = outcome.orElseThrow().lastSeq();             // StaleResolutionException when rejected
 * outcome.committed().ifPresent(result -> ...);             // or branch on the result
 * outcome.stale().forEach(stale -> ...);                    // empty when committed
 * }</pre>
 */
public sealed interface StepOutcome permits StepOutcome.Committed, StepOutcome.Rejected {

  /** Whether the step was committed. */
  boolean isCommitted();

  /** What the committed step stored, or empty when it was rejected. */
  Optional<StepResult> committed();

  /** The resolutions that made the step rejected, in step order; empty when it was committed. */
  List<Resolution.Stale> stale();

  /**
   * What the committed step stored.
   *
   * @throws StaleResolutionException naming every stale resolution ({@link #stale()}) when the step was rejected
   */
  default StepResult orElseThrow() {
    return committed().orElseThrow(() -> new StaleResolutionException(stale()));
  }

  /** Every member of the step is stored; {@code result} says how. */
  record Committed(StepResult result) implements StepOutcome {

    /**
     * Builds the record, checking its members as described on the type.
     * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
     */
    public Committed {
      Checks.requireNonNull("result", result);
    }

    @Override
    public boolean isCommitted() {
      return true;
    }

    @Override
    public Optional<StepResult> committed() {
      return Optional.of(result);
    }

    @Override
    public List<Resolution.Stale> stale() {
      return List.of();
    }
  }

  /**
   * Nothing of the step was written because these resolutions found their calls neither pending nor resolved as
   * asked; each names its call and what is stored now. Every stale resolution of the step is listed, in step order.
   */
  record Rejected(List<Resolution.Stale> stale) implements StepOutcome {

    /**
     * Builds the record, checking its members as described on the type.
     * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
     */
    public Rejected {
      stale = List.copyOf(Checks.requireNonNull("stale", stale));
      if (stale.isEmpty()) {
        throw new InvalidArgumentException("stale", "a rejected step names at least one stale resolution");
      }
    }

    @Override
    public boolean isCommitted() {
      return false;
    }

    @Override
    public Optional<StepResult> committed() {
      return Optional.empty();
    }
  }
}
