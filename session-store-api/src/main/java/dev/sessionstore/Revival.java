package dev.sessionstore;

import java.util.List;
import java.util.Optional;

/**
 * What a revived agent needs to rebuild its working set (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#9">9</a>): the latest summary and the
 * events after its {@code toSeq}, oldest-first; with no summary, every event.
 *
 * @param summary the latest summary, or empty
 * @param events  the events after the summary's {@code toSeq} (all of them without a summary), oldest-first
 * @param lastSeq the seq the session's log ended at when it was read, as one consistent view with the events: the
 *                revived agent's next expected seq ({@link Step.Builder#expectLastSeq}); 0 for an empty log or an
 *                unknown session. It is the last event's seq when {@code events} is unfiltered and not empty
 */
public record Revival(Optional<Summary> summary, List<Event> events, long lastSeq) {

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public Revival {
    Checks.requireNonNull("summary", summary);
    events = List.copyOf(Checks.requireNonNull("events", events));
    Checks.requireNonNegative("lastSeq", lastSeq);
  }
}
