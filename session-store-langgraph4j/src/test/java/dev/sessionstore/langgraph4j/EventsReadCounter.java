package dev.sessionstore.langgraph4j;

import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.spi.ForwardingEventLog;
import dev.sessionstore.spi.ForwardingSessionStore;
import dev.sessionstore.spi.Interception;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/** A store that counts the events its log's reads ({@code read}, {@code find}) return, on any backend. */
final class EventsReadCounter extends ForwardingSessionStore {

  private final AtomicLong eventsRead = new AtomicLong();

  EventsReadCounter(SessionStore delegate) {
    super(delegate, Interception.none());
  }

  /** The events read so far. */
  long eventsRead() {
    return eventsRead.get();
  }

  @Override
  protected EventLog decorate(EventLog events) {
    return new ForwardingEventLog(events, interception()) {
      @Override
      public EventPage read(String sessionId, EventQuery query) {
        EventPage page = super.read(sessionId, query);
        eventsRead.addAndGet(page.items().size());
        return page;
      }

      @Override
      public Optional<Event> find(String sessionId, String eventId) {
        Optional<Event> event = super.find(sessionId, eventId);
        eventsRead.addAndGet(event.isPresent() ? 1 : 0);
        return event;
      }
    };
  }
}
