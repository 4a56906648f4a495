package dev.sessionstore.adk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.sessions.BaseSessionService;
import com.google.adk.sessions.GetSessionConfig;
import com.google.adk.sessions.ListEventsResponse;
import com.google.adk.sessions.ListSessionsResponse;
import com.google.adk.sessions.Session;
import com.google.adk.sessions.SessionException;
import com.google.adk.sessions.SessionNotFoundException;
import com.google.adk.sessions.State;
import dev.sessionstore.DuplicateEventException;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SeqConflictException;
import dev.sessionstore.SessionPage;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Step;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Scheduler;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.schedulers.Schedulers;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentMap;

/**
 * Google ADK's {@link BaseSessionService} over any {@link SessionStore}: sessions, their events and their state in
 * all of ADK's scopes survive the process (on a durable store), and concurrent {@link #appendEvent} calls never lose
 * an event or a state change.
 *
 * <pre>{@code
 * SessionStore store = JdbcSessionStore.builder().jdbcUrl("jdbc:sqlite:agents.db").build();
 * BaseSessionService sessions = SessionStoreSessionService.builder(store).build();
 * Runner runner = new Runner(agent, "my-app", new InMemoryArtifactService(), sessions, null);
 * }</pre>
 *
 * <h2>Design note: the mapping</h2>
 * <ul>
 *   <li><b>Sessions.</b> An ADK session (app, user, session id) is one store session whose id encodes the three
 *       collision-free ({@link ScopeIds}); its metadata names the app, user and session and carries an owner key of
 *       (app, user), by which {@link #listSessions} finds a user's sessions and nobody else's.</li>
 *   <li><b>Events.</b> Each ADK event is one store event of type {@value #EVENT_TYPE} whose payload is ADK's own JSON
 *       ({@link Event#toJson()}, read back with {@link Event#fromJson}) and whose id is the ADK event id, the store's
 *       idempotency key: an event appended again (a retried request) is stored once. Events are ordered by the store's
 *       seq; the store timestamp is the ADK event's.</li>
 *   <li><b>State.</b> Unprefixed keys are the session's: the fold of its log (the creation event's initial state,
 *       then each event's state delta, in seq order). {@code app:} keys live in the log of one store session per app
 *       and {@code user:} keys in one per (app, user): each log is the ordered list of the deltas events wrote, with
 *       snapshots ({@link StateLog}); a log's store session and its metadata are written when a session of its app (or
 *       user) is created, so an event's shared delta is one plain append. {@code temp:} keys are applied to the caller's {@link Session} object only and
 *       never stored (not in the stored event either).</li>
 * </ul>
 *
 * <h2>Concurrency and atomicity</h2>
 * A delta is only ever appended, never computed from a read state and written back, so there is no read-modify-write
 * to lose: concurrent appends to one session are all stored, in the store's seq order, and the later seq wins a key
 * both set; the same holds for two sessions racing on {@code user:} or {@code app:} keys. The session event and its
 * session-scoped delta are one store event, so they commit atomically. The {@code app:} and {@code user:} parts of an
 * event's delta live in other store sessions and are appended first, each with an id derived from the session and
 * the ADK event id; the session event is appended last. A failure between those writes leaves the shared delta
 * applied without its event; the caller sees the error, and retrying the same event applies nothing twice and stores
 * the event. Meanwhile a reader may see the shared change before the event.
 *
 * <p>A {@link Session} object that is behind the store (another writer appended since it was read) never overwrites
 * newer state: {@link #appendEvent} stores only the event's own delta, never the object's state map, and appends it
 * after everything stored.
 *
 * <p>Every method runs its blocking store work when subscribed: on the subscribing thread, or on the service's
 * {@link Scheduler} when {@link Builder#scheduler} set one. Thread-safe; one instance may serve the whole
 * application.
 */
public final class SessionStoreSessionService implements BaseSessionService {

  /** Store event type of an ADK event. */
  static final String EVENT_TYPE = "adk_event";
  /** Store event type of the creation of a session, carrying its initial session state. */
  static final String CREATED_TYPE = "adk_session_created";
  /** Store event type of a delta in a shared ({@code app:} or {@code user:}) state log. */
  static final String DELTA_TYPE = "adk_state_delta";

  static final String META_KIND = "adk.kind";
  static final String META_OWNER = "adk.owner";
  static final String META_APP = "adk.app";
  static final String META_USER = "adk.user";
  static final String META_SESSION = "adk.session";
  static final String KIND_SESSION = "session";
  static final String KIND_APP_STATE = "app-state";
  static final String KIND_USER_STATE = "user-state";

  private static final int PAGE = 500;

  private final SessionStore store;
  private final AdkCalls calls;
  private final StateLog stateLog;

  private SessionStoreSessionService(SessionStore store, Optional<Scheduler> scheduler) {
    this.store = store;
    this.calls = AdkCalls.on(scheduler);
    this.stateLog = new StateLog(store, AdkJson.mapper());
  }

  /** A builder of a service over {@code store}, which the service uses but never closes. */
  public static Builder builder(SessionStore store) {
    return new Builder(Objects.requireNonNull(store, "store"));
  }

  /**
   * Creates a session, as {@link #createSession(String, String, Map, String)} does.
   *
   * @deprecated as in {@link BaseSessionService}
   */
  @Deprecated
  @Override
  public Single<Session> createSession(String appName, String userId, ConcurrentMap<String, Object> state,
      String sessionId) {
    return createSession(appName, userId, (Map<String, Object>) state, sessionId);
  }

  /**
   * Creates a session with {@code sessionId}, or a generated id when it is null or blank, and its initial state:
   * unprefixed keys become the session's, {@code app:} and {@code user:} keys are written to the app's and user's
   * shared state, {@code temp:} keys are dropped. Emits the session with its merged state and no events; its last
   * update time is its creation time.
   *
   * <p>Creating a session whose id the user already has in the app fails with a {@link SessionException} (as ADK
   * Python raises), also when two creations race: the store lets exactly one commit.
   */
  @Override
  public Single<Session> createSession(String appName, String userId, Map<String, Object> state,
      String sessionId) {
    String app = AdkCalls.requireName("appName", appName);
    String user = AdkCalls.requireName("userId", userId);
    String id = sessionId == null || sessionId.isBlank() ? UUID.randomUUID().toString() : sessionId.trim();
    Map<String, Object> initial = state == null ? Map.of() : new HashMap<>(state);
    return single(() -> create(app, user, id, initial));
  }

  /**
   * The session with its events and merged state, or empty when the user has no such session in the app.
   * {@link GetSessionConfig#numRecentEvents()} keeps only the last that many events (a tail read, 0 or less for
   * none); {@link GetSessionConfig#afterTimestamp()} then drops events before that instant; both compose, in this
   * order, as ADK applies them. State and events are one consistent view of the log (as of its last event read).
   */
  @Override
  public Maybe<Session> getSession(String appName, String userId, String sessionId,
      Optional<GetSessionConfig> config) {
    String app = AdkCalls.requireName("appName", appName);
    String user = AdkCalls.requireName("userId", userId);
    String id = AdkCalls.requireName("sessionId", sessionId);
    GetSessionConfig settings = Objects.requireNonNull(config, "config").orElse(null);
    return calls.maybe(() -> read(app, user, id, settings).orElse(null));
  }

  /**
   * The user's sessions in the app, never another user's, in creation order; each with its id, app, user, last update
   * time and merged state (its session keys with the app's {@code app:} and the user's {@code user:} keys, as
   * {@link #getSession} returns it and ADK's {@code InMemorySessionService} lists it), and without events (read one
   * with {@link #getSession} for those).
   *
   * <p>Cost: the sessions are read a page (500) at a time, the app's and user's state once per call, and each session's
   * state from its state snapshot (a checkpoint, on stores with {@link dev.sessionstore.Capability#CHECKPOINTS}) plus
   * the events after it: a constant number of queries per session (on PostgreSQL 3: the snapshot, the events after
   * it, the last ADK event for the update time), whatever its number of events. A store without checkpoints folds each
   * session's whole log.
   */
  @Override
  public Single<ListSessionsResponse> listSessions(String appName, String userId) {
    String app = AdkCalls.requireName("appName", appName);
    String user = AdkCalls.requireName("userId", userId);
    return single(() -> list(app, user));
  }

  /**
   * Deletes the session with its events and session state; the app's and user's shared state stay. Idempotent:
   * deleting an unknown session completes (as ADK Python does), so a retried delete never fails.
   */
  @Override
  public Completable deleteSession(String appName, String userId, String sessionId) {
    String key = ScopeIds.session(AdkCalls.requireName("appName", appName),
        AdkCalls.requireName("userId", userId),
        AdkCalls.requireName("sessionId", sessionId));
    return calls.completable(() -> store.sessions().delete(key));
  }

  /**
   * Every event of the session, in the order the store committed them; one page, no page token.
   * Fails with {@link SessionNotFoundException} when the user has no such session in the app (as the interface
   * documents).
   */
  @Override
  public Single<ListEventsResponse> listEvents(String appName, String userId, String sessionId) {
    String app = AdkCalls.requireName("appName", appName);
    String user = AdkCalls.requireName("userId", userId);
    String id = AdkCalls.requireName("sessionId", sessionId);
    return single(() -> {
      String key = ScopeIds.session(app, user, id);
      requireSession(key, app, user, id);
      List<Event> events = new ArrayList<>();
      readAll(key, EventQuery.all().types(EVENT_TYPE), -1, stored -> events.add(AdkJson.event(stored.payload())));
      return ListEventsResponse.builder().events(events).build();
    });
  }

  /**
   * Stores {@code event} in {@code session} with its state delta, and applies it to the {@code session} object.
   *
   * <ul>
   *   <li>A partial (streaming) event is emitted as is: nothing is stored and no state changes.</li>
   *   <li>An event without an id is given one ({@link Event#generateEventId()}, set on the event), so retrying the
   *       same object is idempotent. An event whose id the session already stores with equal content is not stored
   *       again and its deltas are not applied again; with other content the append fails with a
   *       {@link SessionException}.</li>
   *   <li>{@code app:} and {@code user:} keys are appended to the shared state logs, then the event (with its
   *       session keys) to the session's log; {@code temp:} keys are applied to the {@code session} object only.</li>
   *   <li>The {@code session} object then holds the delta (removals removed), the event (once) and the event's
   *       timestamp as its last update time.</li>
   * </ul>
   *
   * <p>Concurrent appends to one session (from any number of threads or processes) are all stored once each, in
   * the store's seq order, and every delta is applied. Fails with {@link SessionNotFoundException} when the session
   * does not exist.
   */
  @Override
  public Single<Event> appendEvent(Session session, Event event) {
    Objects.requireNonNull(session, "session cannot be null");
    Objects.requireNonNull(event, "event cannot be null");
    if (event.partial().orElse(false)) {
      return Single.just(event);
    }
    String app = AdkCalls.requireName("session.appName", session.appName());
    String user = AdkCalls.requireName("session.userId", session.userId());
    String id = AdkCalls.requireName("session.id", session.id());
    return single(() -> {
      if (event.id() == null || event.id().isBlank()) {
        event.setId(Event.generateEventId());
      }
      boolean replayed = store(app, user, id, event);
      applyToCaller(session, event, replayed);
      return event;
    });
  }

  @Override
  public String toString() {
    return "SessionStoreSessionService[" + store + "]";
  }

  private Session create(String app, String user, String id, Map<String, Object> initial) {
    String key = ScopeIds.session(app, user, id);
    if (store.sessions().find(key).isPresent()) {
      throw new SessionException("Session already exists: " + id + " (app " + app + ", user " + user + ")");
    }
    Map<String, Map<String, Object>> split = split(initial);
    String creationId = UUID.randomUUID().toString();
    ensureSharedLog(ScopeIds.appState(app), KIND_APP_STATE, null, app, null);
    ensureSharedLog(ScopeIds.userState(app, user), KIND_USER_STATE, ScopeIds.userState(app, user), app, user);
    appendShared(app, user, key, creationId, split, Instant.now());
    Map<String, String> metadata = new LinkedHashMap<>();
    metadata.put(META_KIND, KIND_SESSION);
    metadata.put(META_OWNER, ScopeIds.userState(app, user));
    metadata.put(META_APP, app);
    metadata.put(META_USER, user);
    metadata.put(META_SESSION, id);
    ObjectNode payload = AdkJson.mapper().createObjectNode();
    payload.set("state", AdkJson.mapper().valueToTree(split.get(SESSION)));
    Step step = Step.builder(key)
        .session(SessionWrite.of(key).withMetadata(metadata))
        .event(new NewEvent(creationId, CREATED_TYPE, null, null, null, Json.from(payload), null))
        .expectLastSeq(0)
        .build();
    try {
      store.commit(step);
    } catch (SeqConflictException e) {
      throw new SessionException("Session already exists: " + id + " (app " + app + ", user " + user + ")", e);
    }
    return read(app, user, id, null).orElseThrow(
        () -> new SessionException("Session " + id + " was deleted while it was created"));
  }

  private Optional<Session> read(String app, String user, String id, GetSessionConfig config) {
    String key = ScopeIds.session(app, user, id);
    Optional<dev.sessionstore.Session> stored = store.sessions().find(key).filter(s -> owns(s, app, user, id));
    if (stored.isEmpty()) {
      return Optional.empty();
    }
    // events and session state are built as of the log's end when the session was read, so the two agree
    long lastSeq = stored.get().lastSeq();
    List<dev.sessionstore.Event> tail = new ArrayList<>();
    Optional<Integer> recent = config == null ? Optional.empty() : config.numRecentEvents();
    if (recent.isPresent()) {
      if (recent.get() > 0) {
        tail.addAll(store.events().read(key,
            EventQuery.all().types(EVENT_TYPE).before(lastSeq + 1).last(recent.get())).items());
      }
    } else {
      readAll(key, EventQuery.all().types(EVENT_TYPE), lastSeq, tail::add);
    }
    Instant lastUpdate = lastUpdate(key, stored.get(), tail, lastSeq);
    Optional<Instant> after = config == null ? Optional.empty() : config.afterTimestamp();
    List<Event> events = new ArrayList<>();
    for (dev.sessionstore.Event event : tail) {
      Event adk = AdkJson.event(event.payload());
      if (after.isEmpty() || !Instant.ofEpochMilli(adk.timestamp()).isBefore(after.get())) {
        events.add(adk);
      }
    }
    ObjectNode sessionState = stateLog.fold(key, lastSeq, false, SessionStoreSessionService::sessionDelta);
    Map<String, Object> state = new HashMap<>(AdkJson.values(sessionState, ""));
    state.putAll(sharedState(app, user));
    return Optional.of(Session.builder(id).appName(app).userId(user).state(state).events(events)
        .lastUpdateTime(lastUpdate).build());
  }

  private ListSessionsResponse list(String app, String user) {
    List<Session> sessions = new ArrayList<>();
    Map<String, Object> shared = null;
    SessionQuery query = SessionQuery.all().metadata(META_OWNER, ScopeIds.userState(app, user))
        .metadata(META_KIND, KIND_SESSION).limit(PAGE);
    while (true) {
      SessionPage page = store.sessions().list(query);
      for (dev.sessionstore.Session stored : page.items()) {
        String id = stored.metadata().get(META_SESSION);
        if (id == null || !owns(stored, app, user, id)) {
          continue;
        }
        if (shared == null) {
          shared = sharedState(app, user);
        }
        // state and update time as of the session's last seq when listed, so the two agree
        long lastSeq = stored.lastSeq();
        ObjectNode sessionState = stateLog.fold(stored.id(), lastSeq, true, SessionStoreSessionService::sessionDelta);
        Map<String, Object> state = new HashMap<>(AdkJson.values(sessionState, ""));
        state.putAll(shared);
        List<dev.sessionstore.Event> last = store.events().read(stored.id(),
            EventQuery.all().types(EVENT_TYPE).before(lastSeq + 1).last(1)).items();
        sessions.add(Session.builder(id).appName(app).userId(user).state(state)
            .lastUpdateTime(lastUpdate(stored.id(), stored, last, lastSeq)).build());
      }
      if (page.nextCursor().isEmpty()) {
        break;
      }
      query = query.after(page.nextCursor().get());
    }
    return ListSessionsResponse.builder().sessions(sessions).build();
  }

  /**
   * Stores the event with its deltas; whether the session already held it (a retry): its seq is at or below the
   * log's end as read before the append.
   */
  private boolean store(String app, String user, String id, Event event) {
    String key = ScopeIds.session(app, user, id);
    long lastSeqBefore = requireSession(key, app, user, id).lastSeq();
    Json payload = AdkJson.storedEvent(event);
    Instant timestamp = Instant.ofEpochMilli(event.timestamp());
    Map<String, Object> delta = event.actions() == null || event.actions().stateDelta() == null
        ? Map.of() : new HashMap<>(event.actions().stateDelta());
    appendShared(app, user, key, event.id(), split(delta), timestamp);
    try {
      return store.events().append(key, new NewEvent(event.id(), EVENT_TYPE, null, null, null, payload, timestamp))
          .seq() <= lastSeqBefore;
    } catch (DuplicateEventException e) {
      throw new SessionException("Session " + id + " already stores another event with id " + event.id(), e);
    }
  }

  /** Appends the {@code app:} and {@code user:} parts of a delta to their logs, idempotently by the event's id. */
  private void appendShared(String app, String user, String sessionKey, String eventId,
      Map<String, Map<String, Object>> split, Instant timestamp) {
    if (split.get(APP).isEmpty() && split.get(USER).isEmpty()) {
      return;
    }
    String deltaId = ScopeIds.delta(sessionKey, eventId);
    appendDelta(ScopeIds.appState(app), deltaId, split.get(APP), timestamp);
    appendDelta(ScopeIds.userState(app, user), deltaId, split.get(USER), timestamp);
  }

  /**
   * Appends {@code changes} to the shared log {@code logKey}, one plain append: the log's session and metadata were
   * written when the first session of its app (or user) was created ({@link #ensureSharedLog}).
   */
  private void appendDelta(String logKey, String deltaId, Map<String, Object> changes, Instant timestamp) {
    if (changes.isEmpty()) {
      return;
    }
    try {
      store.events().append(logKey,
          new NewEvent(deltaId, DELTA_TYPE, null, null, null, AdkJson.delta(changes), timestamp));
    } catch (DuplicateEventException e) {
      throw new SessionException("a retried event carries another state delta than when it was first appended", e);
    }
  }

  /**
   * Writes the session of the shared log {@code logKey} with its metadata (kind, app, and for a user's log its owner
   * key and user) unless it already holds them: one read when it does. Called before a session is created, so every
   * shared log a session's events append to carries its metadata from its first delta on.
   */
  private void ensureSharedLog(String logKey, String kind, String owner, String app, String user) {
    Map<String, String> metadata = new LinkedHashMap<>();
    metadata.put(META_KIND, kind);
    metadata.put(META_APP, app);
    if (owner != null) {
      metadata.put(META_OWNER, owner);
      metadata.put(META_USER, user);
    }
    if (store.sessions().find(logKey)
        .filter(log -> log.metadata().entrySet().containsAll(metadata.entrySet())).isEmpty()) {
      store.sessions().save(SessionWrite.of(logKey).withMetadata(metadata));
    }
  }

  /** The {@code app:} and {@code user:} state of the user, with their prefixes. */
  private Map<String, Object> sharedState(String app, String user) {
    Map<String, Object> state = new HashMap<>();
    state.putAll(AdkJson.values(stateLog.fold(ScopeIds.appState(app), -1, true,
        SessionStoreSessionService::sharedDelta), State.APP_PREFIX));
    state.putAll(AdkJson.values(stateLog.fold(ScopeIds.userState(app, user), -1, true,
        SessionStoreSessionService::sharedDelta), State.USER_PREFIX));
    return state;
  }

  private static void sessionDelta(dev.sessionstore.Event event, ObjectNode state) {
    JsonNode payload = event.payload().tree();
    if (CREATED_TYPE.equals(event.type())) {
      AdkJson.apply(payload.path("state"), state, key -> StateScope.of(key) == StateScope.SESSION);
    } else if (EVENT_TYPE.equals(event.type())) {
      AdkJson.apply(payload.path("actions").path("stateDelta"), state,
          key -> StateScope.of(key) == StateScope.SESSION);
    }
  }

  private static void sharedDelta(dev.sessionstore.Event event, ObjectNode state) {
    if (DELTA_TYPE.equals(event.type())) {
      AdkJson.apply(event.payload().tree().path("delta"), state, key -> true);
    }
  }

  private static final String APP = "app";
  private static final String USER = "user";
  private static final String SESSION = "session";

  /** The delta split by scope: shared parts without their prefix, session keys as they are, temp keys dropped. */
  private static Map<String, Map<String, Object>> split(Map<String, Object> delta) {
    Map<String, Object> app = new LinkedHashMap<>();
    Map<String, Object> user = new LinkedHashMap<>();
    Map<String, Object> session = new LinkedHashMap<>();
    delta.forEach((key, value) -> {
      switch (StateScope.of(key)) {
        case APP -> app.put(key.substring(State.APP_PREFIX.length()), value);
        case USER -> user.put(key.substring(State.USER_PREFIX.length()), value);
        case SESSION -> session.put(key, value);
        case TEMP -> { }
        default -> throw new IllegalStateException("unknown scope of " + key);
      }
    });
    return Map.of(APP, app, USER, user, SESSION, session);
  }

  /**
   * Applies the stored event to the caller's object as {@link BaseSessionService#appendEvent} describes. The object's
   * events are searched for the event only when the store already held it ({@code replayed}, a retry), so a new event
   * costs the same whatever the session's length. (Two threads appending the same event to the same object at once,
   * both before either's append returned, may both add it to that object; the store holds it once.)
   */
  private static void applyToCaller(Session session, Event event, boolean replayed) {
    EventActions actions = event.actions();
    if (actions != null && actions.stateDelta() != null && session.state() != null) {
      actions.stateDelta().forEach((key, value) -> {
        if (value == State.REMOVED || value == null) {
          session.state().remove(key);
        } else {
          session.state().put(key, value);
        }
      });
    }
    List<Event> events = session.events();
    if (events != null) {
      synchronized (events) {
        if (!replayed || events.stream().noneMatch(held -> event.id().equals(held.id()))) {
          events.add(event);
        }
      }
    }
    session.lastUpdateTime(Instant.ofEpochMilli(event.timestamp()));
  }

  /**
   * ADK's last update time: the timestamp of the session's last event up to {@code upToSeq} (the whole log when
   * negative), or its creation time without events. {@code tail} is a read that ends at that event, when it is not
   * empty.
   */
  private Instant lastUpdate(String key, dev.sessionstore.Session stored, List<dev.sessionstore.Event> tail,
      long upToSeq) {
    if (!tail.isEmpty()) {
      return tail.get(tail.size() - 1).timestamp();
    }
    EventQuery last = EventQuery.all().types(EVENT_TYPE);
    if (upToSeq >= 0) {
      last = last.before(upToSeq + 1);
    }
    List<dev.sessionstore.Event> lastEvent = store.events().read(key, last.last(1)).items();
    if (!lastEvent.isEmpty()) {
      return lastEvent.get(0).timestamp();
    }
    List<dev.sessionstore.Event> first = store.events().read(key, EventQuery.all().first(1)).items();
    return first.isEmpty() ? stored.createdAt() : first.get(0).timestamp();
  }

  /** The stored session of the ADK session, as read now. */
  private dev.sessionstore.Session requireSession(String key, String app, String user, String id) {
    return store.sessions().find(key).filter(s -> owns(s, app, user, id)).orElseThrow(
        () -> new SessionNotFoundException("Session not found: " + id + " (app " + app + ", user " + user + ")"));
  }

  /** Whether {@code stored} is the ADK session {@code id} of {@code user} in {@code app}, by its metadata. */
  static boolean owns(dev.sessionstore.Session stored, String app, String user, String id) {
    Map<String, String> metadata = stored.metadata();
    return KIND_SESSION.equals(metadata.get(META_KIND)) && app.equals(metadata.get(META_APP))
        && user.equals(metadata.get(META_USER)) && id.equals(metadata.get(META_SESSION));
  }

  private void readAll(String key, EventQuery query, long upToSeq,
      java.util.function.Consumer<dev.sessionstore.Event> sink) {
    long after = 0;
    while (true) {
      EventQuery page = query.after(after).first(PAGE);
      if (upToSeq >= 0) {
        page = page.before(upToSeq + 1);
      }
      EventPage events = store.events().read(key, page);
      events.items().forEach(sink);
      if (events.isEmpty() || events.nextCursor().isEmpty()) {
        return;
      }
      after = events.nextCursor().getAsLong();
    }
  }

  private <T> Single<T> single(Callable<T> work) {
    return calls.single(work);
  }

  /**
   * Configures a {@link SessionStoreSessionService}. Each setting may be set once; not thread-safe.
   */
  public static final class Builder {

    private final SessionStore store;
    private Scheduler scheduler;

    private Builder(SessionStore store) {
      this.store = store;
    }

    /**
     * The scheduler the service's blocking store calls run on, each call subscribed on it ({@code subscribeOn}).
     *
     * <p>Default: none. Each call then runs on the thread that subscribes to the returned source, as RxJava's own
     * blocking sources ({@code Single.fromCallable}) and libraries that wrap blocking calls do (Retrofit's
     * {@code RxJava3CallAdapterFactory.create()}, ADK's own {@code VertexAiSessionService}): no thread hand-off per
     * call, which on a fast store costs more than the call (on the in-memory store, with 16 threads appending on 2
     * cores, several times the CPU of the rest of {@link SessionStoreSessionService#appendEvent}). Set one (for example {@link Schedulers#io()}), or apply
     * {@code subscribeOn} to a returned source, to keep the store's blocking I/O off a thread that must not block.
     *
     * @throws NullPointerException  if {@code scheduler} is null
     * @throws IllegalStateException if the scheduler was already set
     */
    public Builder scheduler(Scheduler scheduler) {
      Objects.requireNonNull(scheduler, "scheduler");
      if (this.scheduler != null) {
        throw new IllegalStateException("scheduler was already set to " + this.scheduler);
      }
      this.scheduler = scheduler;
      return this;
    }

    /** The service. */
    public SessionStoreSessionService build() {
      return new SessionStoreSessionService(store, Optional.ofNullable(scheduler));
    }
  }
}
