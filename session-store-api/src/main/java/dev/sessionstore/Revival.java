package dev.sessionstore;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a revived agent needs to rebuild its working set (SPEC guarantee 9): the latest summary and the events after
 * its {@code toSeq}, oldest-first; with no summary, every event.
 */
public record Revival(Optional<Summary> summary, List<Event> events) {

  public Revival {
    Objects.requireNonNull(summary, "summary");
    events = List.copyOf(events);
  }
}
