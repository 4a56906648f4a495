package dev.sessionstore.spi;

import dev.sessionstore.Capability;
import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Limits;
import dev.sessionstore.NewEvent;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The event log of a {@link ValidatingSessionStore}: the closed check, the argument rules and the declared
 * capabilities (waiting reads, truncation), then the adapter's.
 */
final class ValidatingEventLog implements EventLog {

  private final OpenGate gate;
  private final DeclaredCapabilities declared;
  private final EventLog adapter;

  ValidatingEventLog(OpenGate gate, DeclaredCapabilities declared, EventLog adapter) {
    this.gate = gate;
    this.declared = declared;
    this.adapter = adapter;
  }

  @Override
  public Event append(String sessionId, NewEvent event) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requireNonNull("event", event);
    return adapter.append(sessionId, event);
  }

  @Override
  public Event append(String sessionId, NewEvent event, long expectedLastSeq) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requireNonNull("event", event);
    Arguments.requireNonNegative("expectedLastSeq", expectedLastSeq);
    return adapter.append(sessionId, event, expectedLastSeq);
  }

  @Override
  public List<Event> appendAll(String sessionId, List<NewEvent> events) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    return adapter.appendAll(sessionId, Arguments.requireElements("events", events, Limits.MAX_BATCH_SIZE));
  }

  @Override
  public List<Event> appendAll(String sessionId, List<NewEvent> events, long expectedLastSeq) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    List<NewEvent> batch = Arguments.requireElements("events", events, Limits.MAX_BATCH_SIZE);
    Arguments.requireNonNegative("expectedLastSeq", expectedLastSeq);
    return adapter.appendAll(sessionId, batch, expectedLastSeq);
  }

  @Override
  public long lastSeq(String sessionId) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    return adapter.lastSeq(sessionId);
  }

  @Override
  public Optional<Event> find(String sessionId, String eventId) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requireKey("eventId", eventId);
    return adapter.find(sessionId, eventId);
  }

  @Override
  public EventPage read(String sessionId, EventQuery query) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requireNonNull("query", query);
    return adapter.read(sessionId, query);
  }

  @Override
  public EventPage await(String sessionId, EventQuery query, Duration timeout) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requireNonNull("query", query);
    Arguments.requireNonNegative("timeout", timeout);
    declared.require(Capability.WAITING_READS);
    return gate.await(() -> adapter.await(sessionId, query, timeout), page -> !page.isEmpty());
  }

  @Override
  public int truncate(String sessionId, long fromSeq) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requirePositive("fromSeq", fromSeq);
    declared.require(Capability.TRUNCATION);
    return adapter.truncate(sessionId, fromSeq);
  }
}
