package dev.sessionstore;

import java.util.List;
import java.util.Optional;

/**
 * The stretch of a log a summary closes: the events after the previous summary's {@code toSeq} up to and including
 * this summary's {@code toSeq}, oldest-first. Chapters tile the log. Page back by asking for the chapter of
 * {@link #previous()} until it is empty.
 */
public record Chapter(Summary summary, Optional<Summary> previous, List<Event> events) {

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public Chapter {
    Checks.requireNonNull("summary", summary);
    Checks.requireNonNull("previous", previous);
    events = List.copyOf(Checks.requireNonNull("events", events));
  }
}
