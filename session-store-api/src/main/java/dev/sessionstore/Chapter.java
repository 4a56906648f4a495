package dev.sessionstore;

import dev.sessionstore.spi.Arguments;
import java.util.List;
import java.util.Optional;

/**
 * The stretch of a log a summary closes: the events after the previous summary's {@code toSeq} up to and including
 * this summary's {@code toSeq}, oldest-first. Chapters tile the log. Page back by asking for the chapter of
 * {@link #previous()} until it is empty.
 */
public record Chapter(Summary summary, Optional<Summary> previous, List<Event> events) {

  public Chapter {
    Arguments.requireNonNull("summary", summary);
    Arguments.requireNonNull("previous", previous);
    events = List.copyOf(Arguments.requireNonNull("events", events));
  }
}
