package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Forwards every call to a delegate; broken stores override the one method they break. */
public class ForwardingEventLog implements EventLog {

  protected final EventLog delegate;

  public ForwardingEventLog(EventLog delegate) {
    this.delegate = delegate;
  }

  @Override
  public Event append(String sessionId, NewEvent event) {
    return delegate.append(sessionId, event);
  }

  @Override
  public Event append(String sessionId, NewEvent event, long expectedLastSeq) {
    return delegate.append(sessionId, event, expectedLastSeq);
  }

  @Override
  public List<Event> appendAll(String sessionId, List<NewEvent> events) {
    return delegate.appendAll(sessionId, events);
  }

  @Override
  public List<Event> appendAll(String sessionId, List<NewEvent> events, long expectedLastSeq) {
    return delegate.appendAll(sessionId, events, expectedLastSeq);
  }

  @Override
  public long lastSeq(String sessionId) {
    return delegate.lastSeq(sessionId);
  }

  @Override
  public Optional<Event> find(String sessionId, String eventId) {
    return delegate.find(sessionId, eventId);
  }

  @Override
  public EventPage read(String sessionId, EventQuery query) {
    return delegate.read(sessionId, query);
  }

  @Override
  public EventPage await(String sessionId, EventQuery query, Duration timeout) {
    return delegate.await(sessionId, query, timeout);
  }

  @Override
  public int truncate(String sessionId, long fromSeq) {
    return delegate.truncate(sessionId, fromSeq);
  }
}
