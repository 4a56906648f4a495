package dev.sessionstore.memory.internal;

import dev.sessionstore.Archives;
import dev.sessionstore.Capability;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointChange;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Checkpoints;
import dev.sessionstore.DeadlineChange;
import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.ModelCall;
import dev.sessionstore.ModelCallAudit;
import dev.sessionstore.Resolution;
import dev.sessionstore.Retention;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.Run;
import dev.sessionstore.Runs;
import dev.sessionstore.Search;
import dev.sessionstore.Session;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Sessions;
import dev.sessionstore.Step;
import dev.sessionstore.StepOutcome;
import dev.sessionstore.StepResult;
import dev.sessionstore.Summaries;
import dev.sessionstore.Summary;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallResolution;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.ToolCalls;
import dev.sessionstore.UnsupportedCapabilityException;
import dev.sessionstore.memory.InMemorySessionStore;
import dev.sessionstore.spi.Failures;
import dev.sessionstore.spi.StepLog;
import dev.sessionstore.spi.StoreEventSource;
import dev.sessionstore.spi.StoreEventSubscription;
import dev.sessionstore.spi.StoreEvents;
import dev.sessionstore.spi.StoredValues;
import dev.sessionstore.spi.ToolCallTransitions;
import dev.sessionstore.spi.Upserts;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The in-memory {@link SessionStore}; build it with {@link dev.sessionstore.memory.InMemorySessionStore#builder()}.
 *
 * <h2>Concurrency</h2>
 * Every session has its own state object ({@link SessionState}) with its own {@code ReentrantLock}; everything a
 * session owns (the session record, its log, runs, tool calls, summaries, checkpoints, audit rows) is read and
 * changed only under that lock, so operations on different sessions never wait for each other and there is no global
 * lock. Holding the lock for a whole operation is what makes the guarantees simple: seqs are assigned under it (no
 * gaps, no duplicates), a batch or step checks everything before it changes anything (all or nothing: a step
 * computes every member's new state first, then stores them all in a part that cannot fail), and a tool call resolve
 * reads and writes the status under it (one compare-and-set winner). No thread ever holds two session locks: a fork
 * copies its parent under the parent's lock, then creates the fork under the fork's lock.
 *
 * <p>Session names, the one thing unique across sessions, are claimed in a concurrent map with {@code putIfAbsent}
 * ({@link OwnerIndex}) while the claiming session's lock is held, as the last check before a write stores anything.
 * Run and tool-call ids are scoped by session and live in its state. Writer-fencing claims ({@link WriterFences})
 * are changed and checked under the session's lock too, and outlive the session's state.
 *
 * <p>Reads return immutable records and unmodifiable lists. A waiting read sleeps on its session's
 * {@code Condition}, which every append to that session signals; it re-checks its query after each wake and waits
 * only for the time left, so it neither spins nor wakes for other sessions. A session's state exists from its first
 * write (or waiting read) until it is deleted; deletion marks it removed under its lock, and anyone who finds a
 * removed state looks the id up again.
 *
 * <p>Tool-call deadlines are expired by the first access that finds them due by the store clock, and in real time by
 * one daemon thread ({@link DeadlineScheduler}). The same thread applies a retention policy on schedule when the
 * store was built with one ({@link MemoryRetention}). {@link #close()} stops that thread and wakes waiting readers,
 * which return what they have at once.
 *
 * <p>Store events ({@link StoreEventSource}): the deadline thread reports each call it expires, and every waiting
 * read counts as parked while it sleeps on its condition; one that parked and then returned reports its wake latency
 * from the signal of the append (or resolution) that woke it. Listeners are called after the session's lock is let
 * go.
 *
 * <p>The store always runs behind {@link dev.sessionstore.spi.ValidatingSessionStore}, which refuses calls after
 * close and rejects bad arguments; this class relies on the arguments it gets being valid (see the contract in
 * {@code dev.sessionstore.spi}).
 */
public final class MemoryStore implements SessionStore, StoreEventSource {

  private static final Logger LOG = LoggerFactory.getLogger(MemoryStore.class);

  final SessionRegistry registry;
  private final StoreContext context;
  private final DeadlineScheduler deadlines;
  private final MemorySessions sessions;
  private final MemoryEventLog events;
  private final MemoryRuns runs;
  private final MemoryToolCalls toolCalls;
  private final MemorySummaries summaries;
  private final MemoryCheckpoints checkpoints;
  private final MemoryModelCallAudit modelCalls;
  private final MemoryArchives archives;
  private final WriterFences fences;
  private final MemoryRetention retention;
  private final MemoryStoredValues storedValues;
  private final MemorySearch search;
  private final Set<Capability> capabilities;

  /**
   * An empty store reading time from {@code clock}, recording the model-call audit if {@code modelCallAudit} and
   * declaring every capability it has ({@link InMemorySessionStore#AVAILABLE}). Starts the store's deadline thread.
   */
  public MemoryStore(Clock clock, boolean modelCallAudit) {
    this(clock, modelCallAudit, null, null, InMemorySessionStore.AVAILABLE);
  }

  /**
   * An empty store reading time from {@code clock}, recording the model-call audit if {@code modelCallAudit},
   * applying {@code retentionPolicy} every {@code retentionInterval} of the store clock unless both are null, and
   * declaring {@code capabilities} (the aggregates of the others refuse to be handed out; the validating layer in
   * front refuses what else needs them). Starts the store's deadline thread, which also runs the retention schedule.
   */
  public MemoryStore(Clock clock, boolean modelCallAudit, RetentionPolicy retentionPolicy,
      Duration retentionInterval, Set<Capability> capabilities) {
    this.capabilities = capabilities;
    this.context = new StoreContext(clock);
    this.deadlines = new DeadlineScheduler(clock);
    this.registry = new SessionRegistry(deadlines);
    this.toolCalls = new MemoryToolCalls(context, registry, deadlines);
    this.fences = new WriterFences(registry);
    this.sessions = new MemorySessions(context, registry, toolCalls, fences);
    this.events = new MemoryEventLog(context, registry);
    this.runs = new MemoryRuns(context, registry);
    this.summaries = new MemorySummaries(context, registry);
    this.checkpoints = new MemoryCheckpoints(context, registry);
    this.storedValues = new MemoryStoredValues(context, registry, checkpoints);
    this.modelCalls = new MemoryModelCallAudit(context, registry, modelCallAudit);
    this.archives = new MemoryArchives(context, registry, sessions, runs, toolCalls, checkpoints, modelCalls);
    this.retention = new MemoryRetention(context, registry, modelCalls);
    this.search = new MemorySearch(registry);
    if (retentionPolicy != null) {
      retention.start(retentionPolicy, retentionInterval, deadlines);
    }
    LOG.debug("in-memory session store opened (clock {}, model-call audit {})", clock, modelCallAudit);
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
    return declared(toolCalls, Capability.TOOL_CALLS);
  }

  @Override
  public Summaries summaries() {
    return declared(summaries, Capability.SUMMARIES);
  }

  @Override
  public Checkpoints checkpoints() {
    return declared(checkpoints, Capability.CHECKPOINTS);
  }

  @Override
  public ModelCallAudit modelCalls() {
    return declared(modelCalls, Capability.MODEL_CALL_AUDIT);
  }

  @Override
  public Archives archives() {
    return declared(archives, Capability.ARCHIVES);
  }

  @Override
  public Retention retention() {
    return declared(retention, Capability.RETENTION);
  }

  @Override
  public Search search() {
    return declared(search, Capability.SEARCH);
  }

  @Override
  public StepOutcome commit(Step step) {
    StepLog stepLog = StepLog.of(step);
    return registry.withCreatable(step.sessionId(), state -> {
      fences.check(step.sessionId(), step.fence());
      Instant now = context.now();
      if (step.truncateFrom().isPresent() && !state.exists()) {
        throw Failures.sessionNotFound(step.sessionId());
      }
      StepLog.Plan plan = stepLog.plan(state.log.lastSeq(), state.log.findAll(stepLog.ids()), state.log::from);
      Session session = step.session().map(write -> sessions.merge(state, write, now)).orElse(null);
      Run run = step.run().map(write -> runs.merge(state, write, now)).orElse(null);
      for (String eventId : stepLog.foreignRequestEventIds()) {
        MemoryToolCalls.requireRequestEvent(state, eventId, plan::keeps);
      }
      Map<String, ToolCall> calls = new LinkedHashMap<>();
      List<ToolCall> registered = new ArrayList<>();
      for (ToolCallWrite write : step.toolCalls()) {
        ToolCall call = Upserts.toolCall(write, callAsOfStep(state, calls, write.id(), now), now);
        calls.put(call.id(), call);
        registered.add(call);
      }
      List<Resolution> resolutions = new ArrayList<>();
      List<Resolution.Stale> stale = new ArrayList<>();
      for (ToolCallResolution asked : step.resolutions()) {
        ToolCall call = callAsOfStep(state, calls, asked.toolCallId(), now);
        Optional<Resolution> settled = ToolCallTransitions.settled(asked.toolCallId(), call, asked.status(),
            asked.result());
        if (settled.isEmpty()) {
          ToolCall resolved = ToolCallTransitions.resolved(call, asked.status(), asked.result(), now);
          calls.put(resolved.id(), resolved);
          resolutions.add(new Resolution.Resolved(resolved));
        } else if (settled.get() instanceof Resolution.Stale staleOne) {
          stale.add(staleOne);
        } else {
          resolutions.add(settled.get());
        }
      }
      if (!stale.isEmpty()) {
        return new StepOutcome.Rejected(stale);
      }
      for (DeadlineChange change : step.deadlines()) {
        ToolCall call = callAsOfStep(state, calls, change.toolCallId(), now);
        if (call == null) {
          throw Failures.toolCallNotFound(step.sessionId(), change.toolCallId());
        }
        if (call.status() == ToolCallStatus.PENDING) {
          calls.put(call.id(), ToolCallTransitions.withDeadline(call, change.deadline(), now));
        }
      }
      long lastSeqAfter = (plan.cuts() ? plan.cutFrom() - 1 : state.log.lastSeq()) + plan.fresh().size();
      Summary summary = step.summary().map(newSummary -> MemorySummaries.check(state, newSummary, lastSeqAfter, now))
          .orElse(null);
      if (session != null) {
        sessions.claimName(session);
      }
      return new StepOutcome.Committed(
          apply(state, step, plan, session, run, calls, registered, resolutions, summary, now));
    });
  }

  /**
   * Stores a checked step; cannot fail. The caller holds the session's lock and has claimed the session's name.
   */
  private StepResult apply(SessionState state, Step step, StepLog.Plan plan, Session session, Run run,
      Map<String, ToolCall> calls, List<ToolCall> registered, List<Resolution> resolutions, Summary summary,
      Instant now) {
    if (session != null) {
      registry.store(state, session);
    } else {
      registry.ensureExists(state, now);
    }
    if (run != null) {
      runs.store(state, run);
    }
    if (plan.cuts()) {
      state.summaries.tailMap(plan.cutFrom(), true).clear();
      state.log.truncateFrom(plan.cutFrom());
    }
    List<Event> appended = state.log.append(plan.fresh(), now);
    if (plan.changesLog()) {
      state.signalAppended();
    }
    calls.values().forEach(call -> toolCalls.store(state, call));
    if (plan.cuts()) {
      state.dropCutRequestEvents();
    }
    if (summary != null) {
      state.summaries.put(summary.toSeq(), summary);
    }
    List<Checkpoint> checkpoints = new ArrayList<>();
    for (CheckpointChange change : step.checkpoints()) {
      if (change.data() == null) {
        state.checkpoints.remove(change.name());
      } else {
        Checkpoint checkpoint = new Checkpoint(CheckpointKey.of(state.id, change.name()), change.data(), now);
        state.checkpoints.put(change.name(), checkpoint);
        checkpoints.add(checkpoint);
      }
    }
    List<ToolCall> registeredNow = registered.stream().map(call -> state.toolCalls.get(call.id())).toList();
    Optional<ModelCall> modelCall = step.modelCall().flatMap(call -> modelCalls.store(state, call, now));
    return new StepResult(state.session(), Optional.ofNullable(run), plan.removes(), plan.results(appended),
        registeredNow, resolutions, Optional.ofNullable(summary), checkpoints, modelCall);
  }

  /** The call as the step has made it so far, else as stored (expired if due), else {@code null}. */
  private ToolCall callAsOfStep(SessionState state, Map<String, ToolCall> calls, String toolCallId, Instant now) {
    ToolCall call = calls.get(toolCallId);
    return call != null ? call : toolCalls.current(state, toolCallId, now);
  }

  /** {@code aggregate} if the store declares {@code capability}. */
  private <T> T declared(T aggregate, Capability capability) {
    if (!capabilities.contains(capability)) {
      throw new UnsupportedCapabilityException(capability);
    }
    return aggregate;
  }

  /**
   * This store's {@link StoredValues} when it declares {@link Capability#STORED_VALUE_REWRITE}, else what the
   * default answers.
   */
  @Override
  public <T> Optional<T> unwrap(Class<T> type) {
    return type == StoredValues.class && capabilities.contains(Capability.STORED_VALUE_REWRITE)
        ? Optional.of(type.cast(storedValues)) : SessionStore.super.unwrap(type);
  }

  @Override
  public Set<Capability> capabilities() {
    return capabilities;
  }

  /** Reports deadlines fired by the store's timer thread and the wake latency of waiting reads. */
  @Override
  public StoreEventSubscription subscribe(StoreEvents listener) {
    return context.events().subscribe(listener);
  }

  @Override
  public int parkedReads() {
    return context.events().parkedReads();
  }

  /** The adapter and its target: this process's heap, told apart from other in-memory stores by identity. */
  @Override
  public String toString() {
    return "InMemorySessionStore[heap of this process, instance "
        + Integer.toHexString(System.identityHashCode(this)) + "]";
  }

  @Override
  public void close() {
    if (context.close()) {
      deadlines.close();
      registry.wakeWaiters();
      context.events().close();
      LOG.debug("in-memory session store closed");
    }
  }
}
