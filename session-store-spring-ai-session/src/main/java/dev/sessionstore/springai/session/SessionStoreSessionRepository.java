package dev.sessionstore.springai.session;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sessionstore.Capability;
import dev.sessionstore.Event;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SeqConflictException;
import dev.sessionstore.SessionPage;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Step;
import dev.sessionstore.Summary;
import dev.sessionstore.UnsupportedCapabilityException;
import dev.sessionstore.springai.session.internal.CompactionWindow;
import dev.sessionstore.springai.session.internal.EventView;
import dev.sessionstore.springai.session.internal.KeywordSearch;
import dev.sessionstore.springai.session.internal.SessionEventCodec;
import dev.sessionstore.springai.session.internal.SessionRecord;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.springframework.ai.session.EventFilter;
import org.springframework.ai.session.Session;
import org.springframework.ai.session.SessionEvent;
import org.springframework.ai.session.SessionRepository;

/**
 * spring-ai-session's {@link SessionRepository} over a {@link SessionStore}, so every adapter (memory, PostgreSQL,
 * SQLite, Cassandra, encrypted, observed) serves it.
 *
 * <p><b>Mapping.</b> A session is a session of the store with the same id and the user id as its tenant; an event is
 * an event of its log with the same id, its branch as the agent id, its time as the event time and its message in the
 * Spring AI bridge's JSON (the codec of {@code session-store-spring-ai-2}). The event-log version is the log's last
 * seq. A compaction is one atomic step expecting that seq: it appends the retained events the log does not hold yet
 * and a marker event, and writes a summary whose content is the new active window; the events up to the marker that
 * are not in the window read as archived. No compaction deletes an event.
 *
 * <p><b>Guarantees.</b> Thread-safe, and safe across processes sharing a store (SPEC 1, 5, 16). Appending is
 * idempotent per session by event id: an equal event again writes nothing, another event under a stored id fails with
 * {@link dev.sessionstore.DuplicateEventException}, and the same id in another session is another event (SPEC 3).
 * Of two compactions at one version exactly one wins. {@link #findEvents} with a last N reads from the end of the log
 * and, only when it reaches a compaction's marker, the latest compaction, not the whole history: a last N that only
 * message types narrow, after the latest compaction, is one read of N events.
 *
 * <p><b>Where it differs from spring-ai-session's in-memory repository</b> (each covered by the contract test):
 * appending an id again is a replay or an error, never a second event; an active event that a compaction neither
 * archives nor retains (a superseded summary) stays readable as archived instead of being removed; times are kept
 * to the microsecond; an event appended with a time but replayed with another is another content (an error).
 */
public final class SessionStoreSessionRepository implements SessionRepository {

  private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);
  private static final int LIST_PAGE = 500;
  private static final Instant LAST_MICROSECOND = Instant.MAX.truncatedTo(ChronoUnit.MICROS);

  private final SessionStore store;

  private SessionStoreSessionRepository(SessionStore store) {
    this.store = store;
  }

  /**
   * A repository over {@code store}, which must declare {@link Capability#TENANTS} (sessions by user) and
   * {@link Capability#SUMMARIES} (compaction windows); every adapter of this project does.
   *
   * @throws InvalidArgumentException naming {@code store} when it is null or lacks one of them
   */
  public static SessionStoreSessionRepository of(SessionStore store) {
    if (store == null) {
      throw new InvalidArgumentException("store", "must not be null");
    }
    for (Capability needed : List.of(Capability.TENANTS, Capability.SUMMARIES)) {
      if (!store.supports(needed)) {
        throw new InvalidArgumentException("store", "does not declare " + needed
            + ", which this repository needs; use an adapter that does (every session-store adapter does)");
      }
    }
    return new SessionStoreSessionRepository(store);
  }

  /** Creates or updates {@code session}; an existing session keeps its events. */
  @Override
  public Session save(Session session) {
    Objects.requireNonNull(session, "session must not be null");
    store.sessions().save(SessionRecord.write(session));
    return session;
  }

  /** The session {@code sessionId}, or null when there is none (or it is not one of this repository's). */
  @Override
  public Session findById(String sessionId) {
    requireText("sessionId", sessionId);
    return store.sessions().find(sessionId).flatMap(SessionRecord::read).orElse(null);
  }

  /** The sessions of {@code userId}, through the store's tenant listing. */
  @Override
  public List<Session> findByUserId(String userId) {
    requireText("userId", userId);
    return list(SessionQuery.all().tenant(userId), SessionRecord::read);
  }

  /**
   * The ids of this repository's sessions that expire before {@code before}, in creation order: the store's query by
   * expiry ({@link SessionQuery#expiresBefore}) over the sessions carrying the {@link SessionRecord#MARKER} entry,
   * page by page, which each adapter answers from its index on expiries. Its cost grows with the expired sessions,
   * not with the store. Expiries are kept to the microsecond, so {@code before} is taken up to the next microsecond:
   * an expiry is before it exactly when it is before that.
   */
  @Override
  public List<String> findExpiredSessionIds(Instant before) {
    Objects.requireNonNull(before, "before must not be null");
    return list(SessionQuery.all().metadata(SessionRecord.MARKER, "true").expiresBefore(upToTheMicrosecond(before)),
        stored -> SessionRecord.read(stored).map(Session::id));
  }

  /**
   * The first instant at a whole microsecond that is not before {@code before} (the last one at the end of time): an
   * expiry kept to the microsecond is before the one exactly when it is before the other.
   */
  private static Instant upToTheMicrosecond(Instant before) {
    Instant micros = before.truncatedTo(ChronoUnit.MICROS);
    return micros.equals(before) || micros.equals(LAST_MICROSECOND) ? micros : micros.plus(1, ChronoUnit.MICROS);
  }

  /** Deletes the session and everything it owns; deleting an unknown session is fine. */
  @Override
  public void delete(String sessionId) {
    requireText("sessionId", sessionId);
    store.sessions().delete(sessionId);
  }

  /**
   * Appends {@code event} to its session's log: an equal event under a stored id writes nothing.
   *
   * @throws IllegalArgumentException when the session does not exist
   * @throws dev.sessionstore.DuplicateEventException when the session holds other content under the event's id
   */
  @Override
  public void appendEvent(SessionEvent event) {
    Objects.requireNonNull(event, "event must not be null");
    requireSession(event.getSessionId());
    store.events().append(event.getSessionId(), SessionEventCodec.encode(event));
  }

  /**
   * Makes {@code retainedEvents} the active window if the log is still at {@code expectedVersion}, in one step that
   * expects that seq: the retained events the log lacks are appended, then a marker, and the summary written with
   * them holds the window. Everything else up to the marker reads as archived; nothing is deleted.
   *
   * @return whether this compaction won; false when the log moved on since {@code expectedVersion}
   * @throws IllegalArgumentException when the session does not exist
   */
  @Override
  public boolean compactEvents(String sessionId, List<SessionEvent> archivedEvents, List<SessionEvent> retainedEvents,
      long expectedVersion) {
    requireText("sessionId", sessionId);
    Objects.requireNonNull(archivedEvents, "archivedEvents must not be null");
    Objects.requireNonNull(retainedEvents, "retainedEvents must not be null");
    requireSession(sessionId);
    long previousToSeq = store.summaries().latest(sessionId).map(Summary::toSeq).orElse(0L);
    if (previousToSeq > expectedVersion) {
      return false;
    }
    long seq = expectedVersion;
    List<NewEvent> appended = new ArrayList<>();
    List<Event> window = new ArrayList<>();
    for (SessionEvent retained : retainedEvents) {
      Optional<Event> stored = store.events().find(sessionId, retained.getId());
      if (stored.isPresent()) {
        window.add(stored.get());
      } else {
        NewEvent fresh = SessionEventCodec.encode(active(retained));
        appended.add(fresh);
        window.add(new Event(sessionId, ++seq, fresh.id(), fresh.type(), null, fresh.agentId(), null,
            fresh.payload(), fresh.timestamp()));
      }
    }
    appended.add(marker(archivedEvents, retainedEvents));
    CompactionWindow compaction = new CompactionWindow(++seq, window);
    Step step = Step.builder(sessionId).events(appended).summary(compaction.toSummary(previousToSeq + 1))
        .expectLastSeq(expectedVersion).build();
    try {
      return store.commit(step).isCommitted();
    } catch (SeqConflictException e) {
      return false;
    }
  }

  /** The log's last seq: 0 for an unknown session or an empty log. */
  @Override
  public long getEventVersion(String sessionId) {
    requireText("sessionId", sessionId);
    return store.events().lastSeq(sessionId);
  }

  /**
   * The events of {@code sessionId} that match {@code filter}, oldest first (see {@link EventView} for the order and
   * how each field is read); empty for an unknown session.
   *
   * @throws UnsupportedCapabilityException when the filter has a keyword and the store does not declare
   *                                        {@link Capability#SEARCH} (an encrypting store): never a scan instead
   * @throws IllegalArgumentException       when the keyword holds no word
   */
  @Override
  public List<SessionEvent> findEvents(String sessionId, EventFilter filter) {
    requireText("sessionId", sessionId);
    Objects.requireNonNull(filter, "filter must not be null");
    if (filter.keyword() != null && !store.supports(Capability.SEARCH)) {
      throw new UnsupportedCapabilityException(Capability.SEARCH);
    }
    EventView view = new EventView(store.events(), store.summaries(), sessionId, filter);
    if (filter.keyword() != null) {
      List<SessionEvent> found = view.among(new KeywordSearch(filter.keyword())
          .find(store.search(), sessionId, view.types(), filter.from()));
      return slice(found, filter);
    }
    if (filter.lastN() != null) {
      return view.last(filter.lastN());
    }
    if (filter.pageSize() != null) {
      return view.page((long) filter.page() * filter.pageSize(), filter.pageSize());
    }
    return view.page(0, Integer.MAX_VALUE);
  }

  private static List<SessionEvent> slice(List<SessionEvent> matched, EventFilter filter) {
    if (filter.lastN() != null) {
      return matched.subList(Math.max(0, matched.size() - filter.lastN()), matched.size());
    }
    if (filter.pageSize() != null) {
      long from = (long) filter.page() * filter.pageSize();
      return from >= matched.size() ? List.of()
          : matched.subList((int) from, (int) Math.min(from + filter.pageSize(), matched.size()));
    }
    return matched;
  }

  private <T> List<T> list(SessionQuery query, Function<dev.sessionstore.Session, Optional<T>> map) {
    List<T> found = new ArrayList<>();
    SessionQuery next = query.limit(LIST_PAGE);
    while (true) {
      SessionPage page = store.sessions().list(next);
      page.items().forEach(stored -> map.apply(stored).ifPresent(found::add));
      if (page.nextCursor().isEmpty()) {
        return found;
      }
      next = next.after(page.nextCursor().get());
    }
  }

  private void requireSession(String sessionId) {
    requireText("sessionId", sessionId);
    if (store.sessions().find(sessionId).flatMap(SessionRecord::read).isEmpty()) {
      throw new IllegalArgumentException("Session not found: " + sessionId);
    }
  }

  private static void requireText(String field, String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(field + " must not be null or empty");
    }
  }

  private static SessionEvent active(SessionEvent event) {
    return SessionEvent.builder().id(event.getId()).sessionId(event.getSessionId()).timestamp(event.getTimestamp())
        .message(event.getMessage()).metadata(event.getMetadata()).branch(event.getBranch()).build();
  }

  private static NewEvent marker(List<SessionEvent> archived, List<SessionEvent> retained) {
    ObjectNode payload = NODES.objectNode();
    ArrayNode archivedIds = payload.putArray("archived");
    archived.forEach(event -> archivedIds.add(event.getId()));
    ArrayNode retainedIds = payload.putArray("retained");
    retained.forEach(event -> retainedIds.add(event.getId()));
    return NewEvent.of(CompactionWindow.MARKER_TYPE, Json.from(payload));
  }
}
