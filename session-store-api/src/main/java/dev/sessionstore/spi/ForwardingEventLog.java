package dev.sessionstore.spi;

import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * {@link EventLog} that forwards every method to a delegate through an {@link Interception}; a decorator overrides
 * the methods whose values it changes and calls {@code super} to forward. Thread-safe when the delegate and the
 * interception are.
 */
public class ForwardingEventLog implements EventLog {

  private final EventLog delegate;
  private final Interception interception;

  /** Forwards to {@code delegate}, every call through {@code interception}. */
  public ForwardingEventLog(EventLog delegate, Interception interception) {
    this.delegate = Arguments.requireNonNull("delegate", delegate);
    this.interception = Arguments.requireNonNull("interception", interception);
  }

  @Override
  public Event append(String sessionId, NewEvent event) {
    return interception.around("events.append", sessionId, () -> delegate.append(sessionId, event));
  }

  @Override
  public Event append(String sessionId, NewEvent event, long expectedLastSeq) {
    return interception.around("events.append", sessionId, () -> delegate.append(sessionId, event, expectedLastSeq));
  }

  @Override
  public List<Event> appendAll(String sessionId, List<NewEvent> events) {
    return interception.around("events.appendAll", sessionId, () -> delegate.appendAll(sessionId, events));
  }

  @Override
  public List<Event> appendAll(String sessionId, List<NewEvent> events, long expectedLastSeq) {
    return interception.around("events.appendAll", sessionId,
        () -> delegate.appendAll(sessionId, events, expectedLastSeq));
  }

  @Override
  public long lastSeq(String sessionId) {
    return interception.around("events.lastSeq", sessionId, () -> delegate.lastSeq(sessionId));
  }

  @Override
  public Optional<Event> find(String sessionId, String eventId) {
    return interception.around("events.find", sessionId, () -> delegate.find(sessionId, eventId));
  }

  @Override
  public EventPage read(String sessionId, EventQuery query) {
    return interception.around("events.read", sessionId, () -> delegate.read(sessionId, query));
  }

  @Override
  public EventPage await(String sessionId, EventQuery query, Duration timeout) {
    return interception.around("events.await", sessionId, () -> delegate.await(sessionId, query, timeout));
  }

  @Override
  public int truncate(String sessionId, long fromSeq) {
    return interception.around("events.truncate", sessionId, () -> delegate.truncate(sessionId, fromSeq));
  }
}
