package dev.sessionstore.spi;

import dev.sessionstore.DuplicateEventException;
import dev.sessionstore.Event;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Limits;
import dev.sessionstore.NewEvent;
import dev.sessionstore.internal.ApiAccess;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The duplicate-id rule (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#3">3</a>), applied once for every adapter. An adapter appends a batch
 * in three steps, all under its per-session lock or transaction:
 * <ol>
 *   <li>{@link #of} checks the batch and collapses identical in-batch duplicates;</li>
 *   <li>{@link #fresh} takes the already stored events with the batch's {@link #ids()} and returns those that are
 *       new, failing on a reused id with different content;</li>
 *   <li>after storing the fresh events with consecutive seqs, {@link #results} lines the stored events up with the
 *       input, one per input element.</li>
 * </ol>
 */
public final class EventBatch {

  private static final ApiAccess API = ApiAccess.get();

  private final String sessionId;
  private final List<NewEvent> input;
  private final Map<String, NewEvent> distinct;

  private EventBatch(String sessionId, List<NewEvent> input, Map<String, NewEvent> distinct) {
    this.sessionId = sessionId;
    this.input = input;
    this.distinct = distinct;
  }

  /**
   * Checks {@code events} and collapses identical duplicates (same id, same content).
   *
   * @throws InvalidArgumentException if the list or an element is null, or it exceeds {@link Limits#MAX_BATCH_SIZE}
   * @throws DuplicateEventException  if two different events share an id
   */
  public static EventBatch of(String sessionId, List<NewEvent> events) {
    Map<String, NewEvent> distinct = API.distinctEvents(sessionId, events);
    return new EventBatch(sessionId, List.copyOf(events), distinct);
  }

  /** The distinct event ids of the batch, in first-occurrence order. */
  public List<String> ids() {
    return List.copyOf(distinct.keySet());
  }

  /** The distinct events of the batch, in first-occurrence order. */
  public List<NewEvent> distinctEvents() {
    return List.copyOf(distinct.values());
  }

  /** Whether the batch holds no event. */
  public boolean isEmpty() {
    return input.isEmpty();
  }

  /**
   * The events of the batch that are not stored yet, in first-occurrence order.
   *
   * @param stored the session's stored events whose ids are among {@link #ids()}, by id
   * @throws DuplicateEventException if a stored event has one of the ids with different content
   */
  public List<NewEvent> fresh(Map<String, Event> stored) {
    List<NewEvent> fresh = new ArrayList<>();
    for (NewEvent event : distinct.values()) {
      Event existing = stored.get(event.id());
      if (existing == null) {
        fresh.add(event);
      } else {
        replay(sessionId, event, existing);
      }
    }
    return fresh;
  }

  /**
   * {@code stored}, when appending {@code event} to {@code sessionId} again is a replay of it: the rule
   * {@link #fresh} applies to each event of a batch, for an adapter that appends one event without a batch.
   *
   * @param stored the session's stored event with {@code event}'s id
   * @throws DuplicateEventException if {@code stored} has different content
   */
  public static Event replay(String sessionId, NewEvent event, Event stored) {
    if (!sameContent(event, stored)) {
      throw new DuplicateEventException(sessionId, event.id());
    }
    return stored;
  }

  /**
   * One stored event per input element, in input order, as an unmodifiable list.
   *
   * @param stored every event of the batch as now stored (replayed and freshly appended), by id
   */
  public List<Event> results(Map<String, Event> stored) {
    List<Event> results = new ArrayList<>(input.size());
    for (NewEvent event : input) {
      Event result = stored.get(event.id());
      if (result == null) {
        throw new IllegalStateException("no stored event for id " + event.id());
      }
      results.add(result);
    }
    return List.copyOf(results);
  }

  /**
   * Whether appending {@code event} again would be a replay of {@code stored}: same id, type, run, agent, parent and
   * payload, and the same timestamp unless {@code event} leaves it to the store.
   */
  public static boolean sameContent(NewEvent event, Event stored) {
    return event.id().equals(stored.id())
        && event.type().equals(stored.type())
        && Objects.equals(event.runId(), stored.runId())
        && Objects.equals(event.agentId(), stored.agentId())
        && Objects.equals(event.parentId(), stored.parentId())
        && event.payload().equals(stored.payload())
        && (event.timestamp() == null || event.timestamp().equals(stored.timestamp()));
  }

  /** The stored form of {@code event} at {@code seq} in {@code sessionId}, stamped {@code now} unless it has a time. */
  public static Event toStored(String sessionId, NewEvent event, long seq, Instant now) {
    return new Event(sessionId, seq, event.id(), event.type(), event.runId(), event.agentId(), event.parentId(),
        event.payload(), event.timestamp() == null ? now : event.timestamp());
  }
}
