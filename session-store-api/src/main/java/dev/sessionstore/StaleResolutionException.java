package dev.sessionstore;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A caller asked for the result of a resolution or a step that was stale ({@link StepOutcome#orElseThrow()},
 * {@link Resolution#orElseThrow()}): a tool call it resolves was neither pending nor already resolved as asked, so
 * nothing was written. {@link #stale()} names each such call and what is stored now. Raised only by those accessors,
 * never by a store: a store reports a stale resolution as a value.
 */
public class StaleResolutionException extends ConflictException {

  /** The resolutions that lost. */
  private final List<Resolution.Stale> stale;

  /** An exception naming {@code stale}, at least one resolution, in step order. */
  public StaleResolutionException(List<Resolution.Stale> stale) {
    super(describe(stale));
    this.stale = List.copyOf(stale);
  }

  /** The stale resolutions, in step order; never empty. */
  public List<Resolution.Stale> stale() {
    return stale;
  }

  private static String describe(List<Resolution.Stale> stale) {
    Checks.requireNonNull("stale", stale);
    if (stale.isEmpty()) {
      throw new InvalidArgumentException("stale", "names at least one stale resolution");
    }
    return "stale resolution: " + stale.stream().map(StaleResolutionException::describe)
        .collect(Collectors.joining("; "));
  }

  private static String describe(Resolution.Stale one) {
    return "tool call " + one.toolCallId() + one.current()
        .map(call -> " is " + call.status().name().toLowerCase(java.util.Locale.ROOT))
        .orElse(" does not exist");
  }
}
