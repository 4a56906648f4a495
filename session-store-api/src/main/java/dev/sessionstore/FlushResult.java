package dev.sessionstore;

import java.util.List;

/**
 * What a {@link Flush} stored: the session, the run ({@code null} when the flush had none) and one event per input
 * event, in input order.
 */
public record FlushResult(Session session, Run run, List<Event> events) {

  public FlushResult {
    events = List.copyOf(events);
  }
}
