package dev.sessionstore.conformance.bare;

import dev.sessionstore.Archives;
import dev.sessionstore.Capability;
import dev.sessionstore.Checkpoints;
import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.ModelCallAudit;
import dev.sessionstore.NewEvent;
import dev.sessionstore.Retention;
import dev.sessionstore.Run;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.Runs;
import dev.sessionstore.SeqConflictException;
import dev.sessionstore.Session;
import dev.sessionstore.SessionPage;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Sessions;
import dev.sessionstore.Step;
import dev.sessionstore.StepOutcome;
import dev.sessionstore.StepResult;
import dev.sessionstore.Summaries;
import dev.sessionstore.ToolCalls;
import dev.sessionstore.UnsupportedCapabilityException;
import dev.sessionstore.spi.EventBatch;
import dev.sessionstore.spi.EventFilter;
import dev.sessionstore.spi.EventPaging;
import dev.sessionstore.spi.Failures;
import dev.sessionstore.spi.IdOrder;
import dev.sessionstore.spi.SessionCursor;
import dev.sessionstore.spi.StepLog;
import dev.sessionstore.spi.Upserts;
import dev.sessionstore.spi.ValidatingSessionStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The smallest store the contract allows, written from the SPI's javadoc as an adapter author would write one: only
 * the required parts (sessions, the event log, runs, and steps made of those), no optional capability, everything in
 * maps of this process. It is the worked example of the kit's README, and the kit's self-tests run the whole kit on
 * it ({@link BareStoreConformanceTest}) and on broken copies of it.
 *
 * <h2>Design</h2>
 * One lock guards the whole store, so every guarantee of the required parts is plain: seqs are assigned under it (no
 * gaps, no duplicates), a batch or step checks everything before it writes anything (all or nothing), and a name is
 * checked and claimed in the same critical section. Performance is not its point; a real adapter locks per session.
 * The rules every adapter shares come from {@code dev.sessionstore.spi} and are not written again here: upserts
 * ({@link Upserts}), the duplicate-id rule ({@link EventBatch}, {@link StepLog}), which events a query selects and
 * how they page ({@link EventFilter}, {@link EventPaging}), session cursors ({@link SessionCursor}), id order
 * ({@link IdOrder}) and the words of errors ({@link Failures}).
 *
 * <p>What it lacks, it refuses: the accessors of the optional aggregates throw
 * {@link UnsupportedCapabilityException}, and {@link ValidatingSessionStore}, which {@link #create} puts in front as
 * every adapter's builder does, refuses every operation and step member that needs an undeclared capability (a fork,
 * a truncation, a waiting read, a tenant, a claim, a cut, a tool call, ...) before this class is called, and checks
 * every argument and the closed-store rule. The methods below that the layer never calls throw as well, so the store
 * refuses them even without it.
 */
public final class BareStore implements SessionStore {

  private static final Comparator<Session> LISTING_ORDER =
      Comparator.comparing(Session::createdAt).thenComparing(Session::id, IdOrder.BY_CODE_POINT);
  private static final Comparator<Run> RUN_ORDER =
      Comparator.comparing(Run::createdAt).thenComparing(Run::id, IdOrder.BY_CODE_POINT);

  private final Clock clock;
  private final Object lock = new Object();
  private final Map<String, Held> held = new HashMap<>();
  /** Session id by name: names are unique across sessions. */
  private final Map<String, String> names = new HashMap<>();
  private final Sessions sessions = new BareSessions();
  private final EventLog events = new BareEventLog();
  private final Runs runs = new BareRuns();

  private BareStore(Clock clock) {
    this.clock = clock;
  }

  /** A new, empty bare store reading time from {@code clock}, behind the validating layer. */
  public static SessionStore create(Clock clock) {
    return ValidatingSessionStore.wrap(new BareStore(clock));
  }

  /** One session: its record (as last written, the log's length added when read), its log and its runs. */
  private static final class Held {
    Session session;
    final List<Event> log = new ArrayList<>();
    final Map<String, Event> byId = new HashMap<>();
    /** Least recently written first: a save removes and adds its run again, so the last active run is the latest. */
    final LinkedHashMap<String, Run> runs = new LinkedHashMap<>();

    Session read() {
      return session.withLastSeq(log.size());
    }

    Map<String, Event> stored(List<String> ids) {
      Map<String, Event> found = new HashMap<>();
      ids.forEach(id -> Optional.ofNullable(byId.get(id)).ifPresent(event -> found.put(id, event)));
      return found;
    }

    List<Event> append(String sessionId, List<NewEvent> fresh, Instant now) {
      List<Event> appended = new ArrayList<>(fresh.size());
      for (NewEvent event : fresh) {
        Event stored = EventBatch.toStored(sessionId, event, log.size() + 1L, now);
        log.add(stored);
        byId.put(stored.id(), stored);
        appended.add(stored);
      }
      return appended;
    }
  }

  private Instant now() {
    return clock.instant();
  }

  /** The session {@code sessionId}, created with the defaults when unknown. The caller holds the lock. */
  private Held createIfUnknown(String sessionId, Instant now) {
    return held.computeIfAbsent(sessionId, id -> {
      Held created = new Held();
      created.session = Upserts.session(SessionWrite.of(id), null, now);
      return created;
    });
  }

  /** Fails if another session has {@code session}'s name. The caller holds the lock. */
  private void checkName(Session session) {
    String owner = session.name() == null ? null : names.get(session.name());
    if (owner != null && !owner.equals(session.id())) {
      throw Failures.nameTaken(session.name());
    }
  }

  /** Stores a checked session record, moving its name. The caller holds the lock. */
  private void store(Session session, Instant now) {
    Held target = createIfUnknown(session.id(), now);
    if (target.session.name() != null) {
      names.remove(target.session.name());
    }
    if (session.name() != null) {
      names.put(session.name(), session.id());
    }
    target.session = session;
  }

  @Override
  public Sessions sessions() {
    return sessions;
  }

  @Override
  public EventLog events() {
    return events;
  }

  @Override
  public Runs runs() {
    return runs;
  }

  @Override
  public ToolCalls toolCalls() {
    throw new UnsupportedCapabilityException(Capability.TOOL_CALLS);
  }

  @Override
  public Summaries summaries() {
    throw new UnsupportedCapabilityException(Capability.SUMMARIES);
  }

  @Override
  public Checkpoints checkpoints() {
    throw new UnsupportedCapabilityException(Capability.CHECKPOINTS);
  }

  @Override
  public ModelCallAudit modelCalls() {
    throw new UnsupportedCapabilityException(Capability.MODEL_CALL_AUDIT);
  }

  @Override
  public Archives archives() {
    throw new UnsupportedCapabilityException(Capability.ARCHIVES);
  }

  @Override
  public Retention retention() {
    throw new UnsupportedCapabilityException(Capability.RETENTION);
  }

  /**
   * Commits a step of the required members: checks the log part ({@link StepLog#plan}: duplicate ids, expected
   * seq), the session's name and the run, then stores them all in a part that cannot fail.
   */
  @Override
  public StepOutcome commit(Step step) {
    if (step.truncateFrom().isPresent()) {
      throw new UnsupportedCapabilityException(Capability.TRUNCATION);
    }
    StepLog stepLog = StepLog.of(step);
    String sessionId = step.sessionId();
    synchronized (lock) {
      Instant now = now();
      Held known = held.get(sessionId);
      long lastSeq = known == null ? 0 : known.log.size();
      StepLog.Plan plan = stepLog.plan(lastSeq, known == null ? Map.of() : known.stored(stepLog.ids()),
          from -> known.log.subList((int) from - 1, known.log.size()));
      Session session = step.session()
          .map(write -> Upserts.session(write, known == null ? null : known.session, now)).orElse(null);
      if (session != null) {
        checkName(session);
      }
      Run run = step.run()
          .map(write -> Upserts.run(write, known == null ? null : known.runs.get(write.id()), now)).orElse(null);

      Held target = createIfUnknown(sessionId, now);
      if (session != null) {
        store(session, now);
      }
      if (run != null) {
        target.runs.remove(run.id());
        target.runs.put(run.id(), run);
      }
      List<Event> appended = target.append(sessionId, plan.fresh(), now);
      return new StepOutcome.Committed(new StepResult(target.read(), Optional.ofNullable(run), plan.removes(),
          plan.results(appended), List.of(), List.of(), Optional.empty(), List.of(), Optional.empty()));
    }
  }

  @Override
  public Set<Capability> capabilities() {
    return Set.of();
  }

  /** Nothing to release: the store owns no thread or connection, and has no waiting read to wake. */
  @Override
  public void close() {
  }

  @Override
  public String toString() {
    return "BareStore[maps of this process, instance " + Integer.toHexString(System.identityHashCode(this)) + "]";
  }

  /** Sessions: upserts, lookups, listing in creation order, deletion. */
  private final class BareSessions implements Sessions {

    @Override
    public Session save(SessionWrite write) {
      synchronized (lock) {
        Instant now = now();
        Held known = held.get(write.id());
        Session session = Upserts.session(write, known == null ? null : known.session, now);
        checkName(session);
        store(session, now);
        return held.get(write.id()).read();
      }
    }

    @Override
    public Session mergeMetadata(String sessionId, Map<String, String> patch) {
      synchronized (lock) {
        Held known = held.get(sessionId);
        if (known == null) {
          throw Failures.sessionNotFound(sessionId);
        }
        known.session = Upserts.session(SessionWrite.of(sessionId).withMetadata(patch), known.session, now());
        return known.read();
      }
    }

    @Override
    public Optional<Session> find(String sessionId) {
      synchronized (lock) {
        return Optional.ofNullable(held.get(sessionId)).map(Held::read);
      }
    }

    @Override
    public Optional<Session> findByName(String name) {
      synchronized (lock) {
        return Optional.ofNullable(names.get(name)).map(held::get).map(Held::read);
      }
    }

    @Override
    public SessionPage list(SessionQuery query) {
      List<Session> all;
      synchronized (lock) {
        all = held.values().stream().map(Held::read).filter(query::matches).sorted(LISTING_ORDER).toList();
      }
      SessionCursor after = query.cursor() == null ? null : SessionCursor.decode(query.cursor());
      List<Session> from = after == null ? all : all.stream()
          .filter(session -> LISTING_ORDER.compare(session, cursorPosition(after)) > 0).toList();
      List<Session> rest = from.subList(Math.min(query.offset(), from.size()), from.size());
      int limit = query.limit().orElse(Integer.MAX_VALUE);
      if (rest.size() <= limit) {
        return new SessionPage(List.copyOf(rest), Optional.empty());
      }
      List<Session> items = List.copyOf(rest.subList(0, limit));
      return new SessionPage(items, Optional.of(SessionCursor.after(items.get(limit - 1)).encode()));
    }

    /** A session standing at the cursor's position in {@link #LISTING_ORDER}, to compare others with. */
    private Session cursorPosition(SessionCursor cursor) {
      return Upserts.session(SessionWrite.of(cursor.id()), null, cursor.createdAt());
    }

    @Override
    public List<String> listResumable() {
      synchronized (lock) {
        return held.values().stream().map(known -> known.session).filter(Session::resumesEagerly).map(Session::id)
            .sorted(IdOrder.BY_CODE_POINT).toList();
      }
    }

    @Override
    public Session fork(String sessionId, long atSeq) {
      throw new UnsupportedCapabilityException(Capability.FORKS);
    }

    @Override
    public Session fork(String sessionId, long atSeq, String newSessionId) {
      throw new UnsupportedCapabilityException(Capability.FORKS);
    }

    @Override
    public boolean delete(String sessionId) {
      synchronized (lock) {
        Held removed = held.remove(sessionId);
        if (removed != null && removed.session.name() != null) {
          names.remove(removed.session.name());
        }
        return removed != null;
      }
    }

    @Override
    public int deleteByTenant(String tenant) {
      throw new UnsupportedCapabilityException(Capability.TENANTS);
    }
  }

  /** The event logs: batches checked whole, then appended with consecutive seqs. */
  private final class BareEventLog implements EventLog {

    @Override
    public Event append(String sessionId, NewEvent event) {
      return appendAll(sessionId, List.of(event)).get(0);
    }

    @Override
    public Event append(String sessionId, NewEvent event, long expectedLastSeq) {
      return appendAll(sessionId, List.of(event), expectedLastSeq).get(0);
    }

    @Override
    public List<Event> appendAll(String sessionId, List<NewEvent> events) {
      return append(sessionId, events, OptionalLong.empty());
    }

    @Override
    public List<Event> appendAll(String sessionId, List<NewEvent> events, long expectedLastSeq) {
      return append(sessionId, events, OptionalLong.of(expectedLastSeq));
    }

    /** The duplicate-id rule first, the expected seq only when the batch holds a new event, then the append. */
    private List<Event> append(String sessionId, List<NewEvent> events, OptionalLong expectedLastSeq) {
      EventBatch batch = EventBatch.of(sessionId, events);
      if (batch.isEmpty()) {
        return List.of();
      }
      synchronized (lock) {
        Held known = held.get(sessionId);
        Map<String, Event> stored = new HashMap<>(known == null ? Map.of() : known.stored(batch.ids()));
        List<NewEvent> fresh = batch.fresh(stored);
        long lastSeq = known == null ? 0 : known.log.size();
        if (!fresh.isEmpty() && expectedLastSeq.isPresent() && expectedLastSeq.getAsLong() != lastSeq) {
          throw new SeqConflictException(sessionId, expectedLastSeq.getAsLong(), lastSeq);
        }
        if (!fresh.isEmpty()) {
          Instant now = now();
          createIfUnknown(sessionId, now).append(sessionId, fresh, now)
              .forEach(event -> stored.put(event.id(), event));
        }
        return batch.results(stored);
      }
    }

    @Override
    public long lastSeq(String sessionId) {
      synchronized (lock) {
        Held known = held.get(sessionId);
        return known == null ? 0 : known.log.size();
      }
    }

    @Override
    public Optional<Event> find(String sessionId, String eventId) {
      synchronized (lock) {
        return Optional.ofNullable(held.get(sessionId)).map(known -> known.byId.get(eventId));
      }
    }

    /** The matching events in fetch order, at most the fetch limit, made a page by {@link EventPaging}. */
    @Override
    public EventPage read(String sessionId, EventQuery query) {
      List<Event> matching;
      synchronized (lock) {
        Held known = held.get(sessionId);
        matching = known == null ? List.of()
            : known.log.stream().filter(event -> EventFilter.matches(query, event)).toList();
      }
      List<Event> fetched = new ArrayList<>(matching);
      if (EventPaging.fetchesNewestFirst(query)) {
        Collections.reverse(fetched);
      }
      OptionalLong limit = EventPaging.fetchLimit(query);
      if (limit.isPresent() && fetched.size() > limit.getAsLong()) {
        fetched = fetched.subList(0, (int) limit.getAsLong());
      }
      return EventPaging.page(fetched, query);
    }

    @Override
    public EventPage await(String sessionId, EventQuery query, Duration timeout) {
      throw new UnsupportedCapabilityException(Capability.WAITING_READS);
    }

    @Override
    public int truncate(String sessionId, long fromSeq) {
      throw new UnsupportedCapabilityException(Capability.TRUNCATION);
    }
  }

  /** Runs: upserts in a session, listed in creation order; the active one is the latest written that is active. */
  private final class BareRuns implements Runs {

    @Override
    public Run save(RunWrite write) {
      synchronized (lock) {
        Instant now = now();
        Held target = createIfUnknown(write.sessionId(), now);
        Run run = Upserts.run(write, target.runs.get(write.id()), now);
        target.runs.remove(run.id());
        target.runs.put(run.id(), run);
        return run;
      }
    }

    @Override
    public Optional<Run> find(String sessionId, String runId) {
      synchronized (lock) {
        return Optional.ofNullable(held.get(sessionId)).map(known -> known.runs.get(runId));
      }
    }

    @Override
    public List<Run> list(String sessionId) {
      synchronized (lock) {
        Held known = held.get(sessionId);
        return known == null ? List.of() : known.runs.values().stream().sorted(RUN_ORDER).toList();
      }
    }

    @Override
    public List<Run> list(String sessionId, RunStatus status) {
      return list(sessionId).stream().filter(run -> run.status() == status).toList();
    }

    @Override
    public Optional<Run> active(String sessionId) {
      synchronized (lock) {
        Held known = held.get(sessionId);
        Run active = null;
        if (known != null) {
          for (Run run : known.runs.values()) {
            if (run.status().isActive()) {
              active = run;
            }
          }
        }
        return Optional.ofNullable(active);
      }
    }
  }
}
