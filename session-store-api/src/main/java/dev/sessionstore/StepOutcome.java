package dev.sessionstore;

import dev.sessionstore.spi.Arguments;
import java.util.List;

/**
 * The outcome of {@link SessionStore#commit}: the step was {@link Committed} whole, or {@link Rejected} whole because
 * at least one of its resolutions was stale, in which case nothing of it was written (SPEC guarantee 16). Other
 * failures (seq conflict, reused event id, invalid input, unknown session, event or tool call) are exceptions.
 */
public sealed interface StepOutcome permits StepOutcome.Committed, StepOutcome.Rejected {

  /** Whether the step was committed. */
  boolean isCommitted();

  /** Every member of the step is stored; {@code result} says how. */
  record Committed(StepResult result) implements StepOutcome {

    public Committed {
      Arguments.requireNonNull("result", result);
    }

    @Override
    public boolean isCommitted() {
      return true;
    }
  }

  /**
   * Nothing of the step was written because these resolutions found their calls neither pending nor resolved as
   * asked; each names its call and what is stored now. Every stale resolution of the step is listed, in step order.
   */
  record Rejected(List<Resolution.Stale> stale) implements StepOutcome {

    public Rejected {
      stale = List.copyOf(Arguments.requireNonNull("stale", stale));
      if (stale.isEmpty()) {
        throw new InvalidArgumentException("stale", "a rejected step names at least one stale resolution");
      }
    }

    @Override
    public boolean isCommitted() {
      return false;
    }
  }
}
