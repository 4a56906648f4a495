package dev.sessionstore.spi;

import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;

/**
 * Which events an {@link EventQuery} selects, for adapters that filter in memory (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#7">7</a>).
 */
public final class EventFilter {

  private EventFilter() {
  }

  /**
   * Whether {@code event} is inside the query's seq bounds ({@code after}, {@code before}, exclusive) and passes every
   * filter (run, types, agent, {@code since} inclusive); the limit and direction aside.
   */
  public static boolean matches(EventQuery query, Event event) {
    return event.seq() > query.after()
        && (query.before().isEmpty() || event.seq() < query.before().getAsLong())
        && (query.runId() == null || query.runId().equals(event.runId()))
        && (query.types().isEmpty() || query.types().contains(event.type()))
        && (query.agentId() == null || query.agentId().equals(event.agentId()))
        && (query.since() == null || !event.timestamp().isBefore(query.since()));
  }
}
