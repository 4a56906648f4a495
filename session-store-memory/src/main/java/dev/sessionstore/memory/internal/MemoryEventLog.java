package dev.sessionstore.memory.internal;

import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SeqConflictException;
import dev.sessionstore.spi.EventBatch;
import dev.sessionstore.spi.Failures;
import dev.sessionstore.spi.Timeouts;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The event logs of an in-memory store. Appends validate the whole batch (duplicate ids, expected seq) under the
 * session's lock before storing any of it; waiting reads sleep on the session's condition, which every append to
 * that session signals.
 */
final class MemoryEventLog implements EventLog {

  private static final EventPage EMPTY_PAGE = new EventPage(List.of(), OptionalLong.empty());

  private final StoreContext context;
  private final SessionRegistry registry;

  MemoryEventLog(StoreContext context, SessionRegistry registry) {
    this.context = context;
    this.registry = registry;
  }

  @Override
  public Event append(String sessionId, NewEvent event) {
    return appendOne(sessionId, event, OptionalLong.empty());
  }

  @Override
  public Event append(String sessionId, NewEvent event, long expectedLastSeq) {
    return appendOne(sessionId, event, OptionalLong.of(expectedLastSeq));
  }

  /** A batch of one event, appended by the rules of {@link #prepare} and {@link #commit} without building one. */
  private Event appendOne(String sessionId, NewEvent event, OptionalLong expectedLastSeq) {
    return registry.withCreatable(sessionId, state -> {
      Event stored = state.log.find(event.id());
      if (stored != null) {
        return EventBatch.replay(sessionId, event, stored);
      }
      checkExpected(state, expectedLastSeq);
      Instant now = context.now();
      registry.ensureExists(state, now);
      Event appended = state.log.append(event, now);
      state.signalAppended();
      return appended;
    });
  }

  @Override
  public List<Event> appendAll(String sessionId, List<NewEvent> events) {
    return appendBatch(EventBatch.of(sessionId, events), sessionId, OptionalLong.empty());
  }

  @Override
  public List<Event> appendAll(String sessionId, List<NewEvent> events, long expectedLastSeq) {
    EventBatch batch = EventBatch.of(sessionId, events);
    return appendBatch(batch, sessionId, OptionalLong.of(expectedLastSeq));
  }

  private List<Event> appendBatch(EventBatch batch, String sessionId, OptionalLong expectedLastSeq) {
    if (batch.isEmpty()) {
      return List.of();
    }
    return registry.withCreatable(sessionId,
        state -> commit(state, prepare(state, batch, expectedLastSeq), context.now()));
  }

  /**
   * Checks {@code batch} against the session's log, storing nothing: the duplicate-id rule, then the expected seq
   * when the batch holds a new event. The caller holds the session's lock until {@link #commit}.
   *
   * @throws dev.sessionstore.DuplicateEventException if an id is reused with different content
   * @throws SeqConflictException                     if the log does not end at {@code expectedLastSeq}
   */
  PreparedAppend prepare(SessionState state, EventBatch batch, OptionalLong expectedLastSeq) {
    Map<String, Event> stored = state.log.findAll(batch.ids());
    List<NewEvent> fresh = batch.fresh(stored);
    if (!fresh.isEmpty()) {
      checkExpected(state, expectedLastSeq);
    }
    return new PreparedAppend(batch, stored, fresh);
  }

  /** Fails unless the session's log ends at {@code expectedLastSeq}, when one is given. */
  private static void checkExpected(SessionState state, OptionalLong expectedLastSeq) {
    long lastSeq = state.log.lastSeq();
    if (expectedLastSeq.isPresent() && expectedLastSeq.getAsLong() != lastSeq) {
      throw new SeqConflictException(state.id, expectedLastSeq.getAsLong(), lastSeq);
    }
  }

  /**
   * Stores the new events of a prepared batch, creating the session if needed, wakes the session's waiting readers
   * and returns one stored event per input element; events without a timestamp get {@code now}. Cannot fail.
   */
  List<Event> commit(SessionState state, PreparedAppend append, Instant now) {
    Map<String, Event> stored = new HashMap<>(append.stored());
    if (!append.fresh().isEmpty()) {
      registry.ensureExists(state, now);
      for (Event event : state.log.append(append.fresh(), now)) {
        stored.put(event.id(), event);
      }
      state.signalAppended();
    }
    return List.copyOf(append.batch().results(stored));
  }

  @Override
  public long lastSeq(String sessionId) {
    return registry.withExisting(sessionId, state -> state.log.lastSeq(), () -> 0L);
  }

  @Override
  public Optional<Event> find(String sessionId, String eventId) {
    return registry.withExisting(sessionId, state -> Optional.ofNullable(state.log.find(eventId)), Optional::empty);
  }

  @Override
  public EventPage read(String sessionId, EventQuery query) {
    return registry.withExisting(sessionId, state -> state.log.read(query), () -> EMPTY_PAGE);
  }

  /**
   * Reads; while the page is empty, parks on the session's condition until an append signals it, the timeout passes
   * or the store closes. A read that parked and then returned events reports its wake latency (from the append's
   * signal to the return) after it let go of the session's lock.
   */
  @Override
  public EventPage await(String sessionId, EventQuery query, Duration timeout) {
    long remainingNanos = Timeouts.nanos(timeout);
    while (true) {
      SessionState state = registry.lockLive(sessionId);
      state.addWaiter();
      boolean parked = false;
      boolean woken = false;
      long signalledAt = 0;
      try {
        while (!state.isRemoved()) {
          EventPage page = state.exists() ? state.log.read(query) : EMPTY_PAGE;
          if (!page.isEmpty() && parked) {
            woken = true;
            signalledAt = state.appendedAtNanos();
          }
          if (!page.isEmpty() || remainingNanos <= 0 || context.isClosed()) {
            return page;
          }
          parked = true;
          context.events().readParked();
          try {
            remainingNanos = state.appended.awaitNanos(remainingNanos);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return page;
          } finally {
            context.events().readUnparked();
          }
        }
      } finally {
        state.removeWaiter();
        registry.discardIfUnused(state);
        state.lock.unlock();
        if (woken) {
          context.readWokenSince(signalledAt);
        }
      }
    }
  }

  @Override
  public int truncate(String sessionId, long fromSeq) {
    return registry.withExisting(sessionId, state -> {
      state.summaries.tailMap(fromSeq, true).clear();
      int removed = state.log.truncateFrom(fromSeq);
      state.dropCutRequestEvents();
      return removed;
    }, () -> {
      throw Failures.sessionNotFound(sessionId);
    });
  }

  /** A batch checked against the log and ready to store: the stored events it replays and those it adds. */
  record PreparedAppend(EventBatch batch, Map<String, Event> stored, List<NewEvent> fresh) {
  }
}
