package dev.sessionstore.memory.internal;

import dev.sessionstore.Capability;
import dev.sessionstore.Checkpoints;
import dev.sessionstore.ConflictException;
import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.Flush;
import dev.sessionstore.FlushResult;
import dev.sessionstore.ModelCallAudit;
import dev.sessionstore.Run;
import dev.sessionstore.Runs;
import dev.sessionstore.Session;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Sessions;
import dev.sessionstore.Summaries;
import dev.sessionstore.ToolCalls;
import dev.sessionstore.spi.Arguments;
import dev.sessionstore.spi.EventBatch;
import java.time.Clock;
import java.time.Instant;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
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
 * gaps, no duplicates), a batch or flush checks everything before it changes anything (all or nothing), and a tool
 * call resolve reads and writes the status under it (one compare-and-set winner). No thread ever holds two session
 * locks: a fork copies its parent under the parent's lock, then creates the fork under the fork's lock.
 *
 * <p>What must be unique across sessions (session names, run ids, tool call ids) is claimed in concurrent maps with
 * {@code putIfAbsent} ({@link OwnerIndex}) while the claiming session's lock is held. A claim is invisible to
 * readers, and a flush claims before it stores anything, releasing its claims if a later claim fails.
 *
 * <p>Reads return immutable records and unmodifiable lists. A waiting read sleeps on its session's
 * {@code Condition}, which every append to that session signals; it re-checks its query after each wake and waits
 * only for the time left, so it neither spins nor wakes for other sessions. A session's state exists from its first
 * write (or waiting read) until it is deleted; deletion marks it removed under its lock, and anyone who finds a
 * removed state looks the id up again.
 *
 * <p>Tool-call deadlines are expired by the first access that finds them due by the store clock, and in real time by
 * one daemon thread ({@link DeadlineScheduler}). {@link #close()} stops that thread and wakes waiting readers; from
 * then on every operation throws {@link IllegalStateException}.
 */
public final class MemoryStore implements SessionStore {

  private static final Logger LOG = LoggerFactory.getLogger(MemoryStore.class);
  private static final Set<Capability> CAPABILITIES = Collections.unmodifiableSet(
      EnumSet.complementOf(EnumSet.of(Capability.CROSS_PROCESS_WAKEUP, Capability.DURABLE_DEADLINES)));

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

  /**
   * An empty store reading time from {@code clock}, recording the model-call audit if {@code modelCallAudit}. Starts
   * the store's deadline thread.
   */
  public MemoryStore(Clock clock, boolean modelCallAudit) {
    this.context = new StoreContext(clock);
    this.deadlines = new DeadlineScheduler(clock);
    this.registry = new SessionRegistry(deadlines);
    this.sessions = new MemorySessions(context, registry);
    this.events = new MemoryEventLog(context, registry);
    this.runs = new MemoryRuns(context, registry);
    this.toolCalls = new MemoryToolCalls(context, registry, deadlines);
    this.summaries = new MemorySummaries(context, registry);
    this.checkpoints = new MemoryCheckpoints(context, registry);
    this.modelCalls = new MemoryModelCallAudit(context, registry, modelCallAudit);
    LOG.debug("in-memory session store opened (clock {}, model-call audit {})", clock, modelCallAudit);
  }

  @Override
  public Sessions sessions() {
    context.checkOpen();
    return sessions;
  }

  @Override
  public EventLog events() {
    context.checkOpen();
    return events;
  }

  @Override
  public Runs runs() {
    context.checkOpen();
    return runs;
  }

  @Override
  public ToolCalls toolCalls() {
    context.checkOpen();
    return toolCalls;
  }

  @Override
  public Summaries summaries() {
    context.checkOpen();
    return summaries;
  }

  @Override
  public Checkpoints checkpoints() {
    context.checkOpen();
    return checkpoints;
  }

  @Override
  public ModelCallAudit modelCalls() {
    context.checkOpen();
    return modelCalls;
  }

  @Override
  public FlushResult flush(Flush flush) {
    context.checkOpen();
    Arguments.requireNonNull("flush", flush);
    String sessionId = flush.session().id();
    EventBatch batch = EventBatch.of(sessionId, flush.events());
    return registry.withCreatable(sessionId, state -> {
      Instant now = context.now();
      Session session = sessions.merge(state, flush.session(), now);
      Run run = flush.run() == null ? null : runs.merge(state, flush.run(), now);
      MemoryEventLog.PreparedAppend append = events.prepare(state, batch, flush.expectedLastSeq());
      boolean claimedName = sessions.claimName(session);
      try {
        if (run != null) {
          registry.runOwners.claim(run.id(), sessionId);
        }
      } catch (ConflictException e) {
        if (claimedName) {
          registry.names.release(session.name(), sessionId);
        }
        throw e;
      }
      registry.store(state, session);
      if (run != null) {
        runs.store(state, run);
      }
      List<Event> stored = events.commit(state, append, now);
      return new FlushResult(session, run, stored);
    });
  }

  @Override
  public Set<Capability> capabilities() {
    context.checkOpen();
    return CAPABILITIES;
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
      LOG.debug("in-memory session store closed");
    }
  }
}
