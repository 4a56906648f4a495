package dev.sessionstore.crypto;

import dev.sessionstore.DuplicateEventException;
import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.spi.ForwardingEventLog;
import dev.sessionstore.spi.Interception;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The event log with payloads sealed on the way in and opened on the way out. Idempotency on plaintext: a replay
 * whose sealed payload differs from the stored one (another key since, or the same document spelled differently)
 * meets the adapter's {@link DuplicateEventException}; the stored event is then opened and, if its plaintext equals
 * the replay's, the replay is sent again carrying the stored sealed payload, which the adapter recognizes as a replay.
 */
final class SealingEventLog extends ForwardingEventLog {

  private final Values values;

  SealingEventLog(EventLog delegate, Values values) {
    super(delegate, Interception.none());
    this.values = values;
  }

  @Override
  public Event append(String sessionId, NewEvent event) {
    return appendReplaying(sessionId, event == null ? null : List.of(event),
        batch -> List.of(super.append(sessionId, batch == null ? null : batch.get(0)))).get(0);
  }

  @Override
  public Event append(String sessionId, NewEvent event, long expectedLastSeq) {
    return appendReplaying(sessionId, event == null ? null : List.of(event),
        batch -> List.of(super.append(sessionId, batch == null ? null : batch.get(0), expectedLastSeq))).get(0);
  }

  @Override
  public List<Event> appendAll(String sessionId, List<NewEvent> events) {
    return appendReplaying(sessionId, events, batch -> super.appendAll(sessionId, batch));
  }

  @Override
  public List<Event> appendAll(String sessionId, List<NewEvent> events, long expectedLastSeq) {
    return appendReplaying(sessionId, events, batch -> super.appendAll(sessionId, batch, expectedLastSeq));
  }

  /**
   * Appends {@code events} sealed, adopting the stored sealed payload of each plaintext replay the adapter refuses;
   * returns the stored events with their plaintext.
   */
  private List<Event> appendReplaying(String sessionId, List<NewEvent> events,
      Function<List<NewEvent>, List<Event>> append) {
    List<NewEvent> sealedAsWritten = values.sealEvents(sessionId, events);
    List<NewEvent> sealed = sealedAsWritten;
    while (true) {
      List<Event> appended;
      try {
        appended = append.apply(sealed);
      } catch (DuplicateEventException duplicate) {
        Optional<Event> stored = super.find(sessionId, duplicate.eventId());
        List<NewEvent> current = sealed;
        sealed = stored.flatMap(event -> values.adoptStored(events, current, event)).orElseThrow(() -> duplicate);
        continue;
      }
      return values.openAppended(events, sealedAsWritten, appended);
    }
  }

  @Override
  public Optional<Event> find(String sessionId, String eventId) {
    return super.find(sessionId, eventId).map(values::open);
  }

  @Override
  public EventPage read(String sessionId, EventQuery query) {
    return values.open(super.read(sessionId, query));
  }

  @Override
  public EventPage await(String sessionId, EventQuery query, Duration timeout) {
    return values.open(super.await(sessionId, query, timeout));
  }
}
