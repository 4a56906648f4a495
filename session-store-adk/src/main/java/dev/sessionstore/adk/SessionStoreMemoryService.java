package dev.sessionstore.adk;

import com.google.adk.events.Event;
import com.google.adk.memory.BaseMemoryService;
import com.google.adk.memory.MemoryEntry;
import com.google.adk.memory.SearchMemoryResponse;
import com.google.adk.sessions.Session;
import com.google.adk.sessions.SessionException;
import com.google.genai.types.Content;
import dev.sessionstore.Capability;
import dev.sessionstore.DuplicateEventException;
import dev.sessionstore.Json;
import dev.sessionstore.Limits;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SearchHit;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SearchTerm;
import dev.sessionstore.SearchWords;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Step;
import dev.sessionstore.UnsupportedCapabilityException;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Scheduler;
import io.reactivex.rxjava3.core.Single;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Google ADK's {@link BaseMemoryService} over a {@link SessionStore} with {@link Capability#SEARCH}: the sessions a
 * user added to memory, searched by the store's own word index, for ADK's {@code load_memory} tool
 * ({@link com.google.adk.tools.LoadMemoryTool}) and {@code ToolContext.searchMemory}.
 *
 * <pre>{@code
 * SessionStore store = JdbcSessionStore.builder().jdbcUrl("jdbc:sqlite:agents.db").build();
 * BaseSessionService sessions = SessionStoreSessionService.builder(store).build();
 * BaseMemoryService memory = SessionStoreMemoryService.builder(store).build();
 * Runner runner = Runner.builder().agent(agent).appName("my-app").sessionService(sessions)
 *     .memoryService(memory).artifactService(new InMemoryArtifactService()).build();
 * // after a conversation: memory.addSessionToMemory(session).blockingAwait();
 * }</pre>
 *
 * <h2>Design note: what memory is</h2>
 * Memory is the set of sessions added to it, per (app, user); nothing is copied out of the store for a session this
 * module's {@link SessionStoreSessionService} keeps.
 * <ul>
 *   <li><b>Adding a session the session service keeps</b> (same store, same app, user and id) marks the stored
 *       session: one metadata entry {@value #META_MEMORY} = the (app, user) owner key. Its events are already in the
 *       store's word index, so they become searchable at once, and so do events appended to it later: memory follows
 *       the session as it is now, not as it was when added. Adding it again changes nothing. Deleting the session
 *       removes it from memory.</li>
 *   <li><b>Adding a session the store does not hold</b> (from another session service) copies its events that have
 *       content parts into a memory-only store session ({@link ScopeIds#memory}, metadata {@code adk.kind=memory},
 *       never listed or read by the session service), in batches that are idempotent by event id: adding it again
 *       adds the events it gained since and stores none twice; an event id the copy holds with other content fails
 *       with a {@link SessionException} (ADK events do not change once appended).</li>
 *   <li><b>Searching</b> reads the store's search scoped by session metadata to the sessions marked with the caller's
 *       (app, user) owner key, so another user's or app's events are never read; each session found is checked again
 *       against its app and user metadata.</li>
 * </ul>
 *
 * <h2>Matching and ranking, as ADK's {@code InMemoryMemoryService}</h2>
 * The query is read into words by {@link SearchWords} (the store's one rule: case-insensitive, NFKC, punctuation
 * separates words, no stemming). An event is a memory when the text parts of its content hold <em>any</em> of the
 * query's words; memories holding more of the words come first, then the store's order (occurrences, then newest).
 * At most {@link Builder#limit(int) limit} memories are returned (default {@value #DEFAULT_LIMIT}, as ADK Python's
 * in-memory service). Cost: one store search for all the words and one per word (the first
 * {@value Limits#MAX_SEARCH_TERMS} distinct words), each reading at most {@code limit} hits, whatever the size of the
 * user's history; an event holding some of the words but ranked below {@code limit} hits for each of them is not
 * returned.
 *
 * <p>Every method does its store work when subscribed, on the subscribing thread or on the service's
 * {@link Scheduler} when {@link Builder#scheduler} set one; store failures surface as {@link SessionException} with
 * the store's exception as cause. Thread-safe.
 */
public final class SessionStoreMemoryService implements BaseMemoryService {

  /** Session metadata key marking a session as in memory; its value is the (app, user) owner key. */
  static final String META_MEMORY = "adk.memory";
  /** {@code adk.kind} of a memory-only copy of a session the session service does not keep. */
  static final String KIND_MEMORY = "memory";

  /** Memories a search returns when {@link Builder#limit(int)} is not set. */
  public static final int DEFAULT_LIMIT = 10;

  private final SessionStore store;
  private final AdkCalls calls;
  private final int limit;

  private SessionStoreMemoryService(SessionStore store, Optional<Scheduler> scheduler, int limit) {
    this.store = store;
    this.calls = AdkCalls.on(scheduler);
    this.limit = limit;
  }

  /** A builder of a memory service over {@code store}, which the service uses but never closes. */
  public static Builder builder(SessionStore store) {
    return new Builder(Objects.requireNonNull(store, "store"));
  }

  /**
   * Adds {@code session} to its user's memory in its app (see the design note): a session the store keeps for
   * {@link SessionStoreSessionService} is marked, with its events as stored now and later; any other session's
   * events with content are copied. A session may be added any number of times; a session without events is added
   * with none.
   */
  @Override
  public Completable addSessionToMemory(Session session) {
    Objects.requireNonNull(session, "session cannot be null");
    String app = AdkCalls.requireName("session.appName", session.appName());
    String user = AdkCalls.requireName("session.userId", session.userId());
    String id = AdkCalls.requireName("session.id", session.id());
    List<Event> events = session.events() == null ? List.of() : List.copyOf(session.events());
    return calls.completable(() -> {
      add(app, user, id, events);
      return null;
    });
  }

  /**
   * The memories of {@code userId} in {@code appName} whose text holds any word of {@code query}, most words first, at
   * most the service's limit; each with the event's content, author and timestamp (ISO-8601, UTC). Empty when the
   * query holds no word or the user has no memory.
   */
  @Override
  public Single<SearchMemoryResponse> searchMemory(String appName, String userId, String query) {
    String app = AdkCalls.requireName("appName", appName);
    String user = AdkCalls.requireName("userId", userId);
    Objects.requireNonNull(query, "query cannot be null");
    return calls.single(() -> search(app, user, query));
  }

  @Override
  public String toString() {
    return "SessionStoreMemoryService[" + store + "]";
  }

  private void add(String app, String user, String id, List<Event> events) {
    String owner = ScopeIds.userState(app, user);
    String key = ScopeIds.session(app, user, id);
    boolean kept = store.sessions().find(key)
        .filter(stored -> SessionStoreSessionService.owns(stored, app, user, id)).isPresent();
    if (kept) {
      store.sessions().mergeMetadata(key, Map.of(META_MEMORY, owner));
      return;
    }
    String copy = ScopeIds.memory(app, user, id);
    Map<String, String> metadata = new LinkedHashMap<>();
    metadata.put(SessionStoreSessionService.META_KIND, KIND_MEMORY);
    metadata.put(SessionStoreSessionService.META_APP, app);
    metadata.put(SessionStoreSessionService.META_USER, user);
    metadata.put(SessionStoreSessionService.META_SESSION, id);
    metadata.put(META_MEMORY, owner);
    List<NewEvent> copied = new ArrayList<>();
    for (Event event : events) {
      if (!event.partial().orElse(false) && hasParts(event)) {
        Json payload = AdkJson.storedEvent(event);
        String eventId = event.id() == null || event.id().isBlank() ? ScopeIds.content(payload.text()) : event.id();
        copied.add(new NewEvent(eventId, SessionStoreSessionService.EVENT_TYPE, null, null, null, payload,
            Instant.ofEpochMilli(event.timestamp())));
      }
    }
    int from = 0;
    do {
      List<NewEvent> batch = copied.subList(from, Math.min(copied.size(), from + Limits.MAX_BATCH_SIZE));
      try {
        store.commit(Step.builder(copy).session(SessionWrite.of(copy).withMetadata(metadata)).events(batch).build());
      } catch (DuplicateEventException e) {
        throw new SessionException("memory already holds another event with id " + e.eventId() + " for session "
            + id + " (app " + app + ", user " + user + ")", e);
      }
      from += batch.size();
    } while (from < copied.size());
  }

  private SearchMemoryResponse search(String app, String user, String text) {
    List<String> words = queryWords(text);
    if (words.isEmpty()) {
      return SearchMemoryResponse.builder().build();
    }
    String owner = ScopeIds.userState(app, user);
    List<List<String>> searches = new ArrayList<>();
    if (words.size() > 1) {
      searches.add(words);
    }
    words.forEach(word -> searches.add(List.of(word)));
    Map<String, Boolean> owned = new HashMap<>();
    Map<String, Memory> found = new LinkedHashMap<>();
    for (List<String> searched : searches) {
      SearchQuery query = new SearchQuery(searched.stream().map(SearchTerm::word).toList(), null, null,
          Map.of(META_MEMORY, owner), Set.of(SessionStoreSessionService.EVENT_TYPE), null, null, null, null, limit,
          null);
      for (SearchHit hit : store.search().find(query).hits()) {
        dev.sessionstore.Event stored = hit.event();
        String key = stored.sessionId() + "#" + stored.seq();
        if (found.containsKey(key) || !owned.computeIfAbsent(stored.sessionId(), id -> owns(id, app, user, owner))) {
          continue;
        }
        Event event = AdkJson.event(stored.payload());
        int matched = matchedWords(event, words);
        if (matched > 0) {
          found.put(key, new Memory(event, matched, found.size()));
        }
      }
    }
    List<MemoryEntry> memories = found.values().stream()
        .sorted(Comparator.comparingInt(Memory::matched).reversed().thenComparingInt(Memory::order))
        .limit(limit)
        .map(memory -> MemoryEntry.builder().content(memory.event().content().orElseThrow())
            .author(memory.event().author()).timestamp(Instant.ofEpochMilli(memory.event().timestamp())).build())
        .toList();
    return SearchMemoryResponse.builder().memories(memories).build();
  }

  /** The distinct words of the query that a search term can hold, the first {@link Limits#MAX_SEARCH_TERMS}. */
  private static List<String> queryWords(String text) {
    Set<String> words = new LinkedHashSet<>();
    for (String word : SearchWords.of(text)) {
      // a form that reads back as itself is a valid term (all but rare normalization edge cases)
      if (words.size() < Limits.MAX_SEARCH_TERMS && SearchWords.of(word).equals(List.of(word))) {
        words.add(word);
      }
    }
    return List.copyOf(words);
  }

  /** Whether the store session {@code sessionId} is in memory for {@code user} in {@code app}, by its metadata. */
  private boolean owns(String sessionId, String app, String user, String owner) {
    return store.sessions().find(sessionId).map(dev.sessionstore.Session::metadata)
        .filter(metadata -> owner.equals(metadata.get(META_MEMORY))
            && app.equals(metadata.get(SessionStoreSessionService.META_APP))
            && user.equals(metadata.get(SessionStoreSessionService.META_USER)))
        .isPresent();
  }

  /** How many of {@code words} the text parts of the event's content hold (0 for an event without text). */
  private static int matchedWords(Event event, List<String> words) {
    Set<String> held = new HashSet<>();
    event.content().flatMap(Content::parts).orElse(List.of()).stream()
        .flatMap(part -> part.text().stream())
        .forEach(partText -> held.addAll(SearchWords.of(partText)));
    return (int) words.stream().filter(held::contains).count();
  }

  private static boolean hasParts(Event event) {
    return event.content().flatMap(Content::parts).filter(parts -> !parts.isEmpty()).isPresent();
  }

  /** An event found, with how many query words its text holds and the order it was found in. */
  private record Memory(Event event, int matched, int order) {
  }

  /**
   * Configures a {@link SessionStoreMemoryService}. Each setting may be set once; not thread-safe.
   */
  public static final class Builder {

    private final SessionStore store;
    private Scheduler scheduler;
    private Integer limit;

    private Builder(SessionStore store) {
      this.store = store;
    }

    /**
     * The scheduler the service's blocking store calls run on, each call subscribed on it ({@code subscribeOn}).
     * Default: none, the thread that subscribes, as for {@link SessionStoreSessionService.Builder#scheduler}.
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

    /**
     * The most memories one search returns. Default {@value SessionStoreMemoryService#DEFAULT_LIMIT}.
     *
     * @throws IllegalArgumentException if {@code limit} is not 1 to {@link Limits#MAX_SEARCH_LIMIT}
     * @throws IllegalStateException    if the limit was already set
     */
    public Builder limit(int limit) {
      if (limit < 1 || limit > Limits.MAX_SEARCH_LIMIT) {
        throw new IllegalArgumentException("limit must be 1 to " + Limits.MAX_SEARCH_LIMIT + " (" + limit + ")");
      }
      if (this.limit != null) {
        throw new IllegalStateException("limit was already set to " + this.limit);
      }
      this.limit = limit;
      return this;
    }

    /**
     * The service.
     *
     * @throws UnsupportedCapabilityException if the store lacks {@link Capability#SEARCH}
     */
    public SessionStoreMemoryService build() {
      if (!store.supports(Capability.SEARCH)) {
        throw new UnsupportedCapabilityException(Capability.SEARCH);
      }
      return new SessionStoreMemoryService(store, Optional.ofNullable(scheduler),
          limit == null ? DEFAULT_LIMIT : limit);
    }
  }
}
