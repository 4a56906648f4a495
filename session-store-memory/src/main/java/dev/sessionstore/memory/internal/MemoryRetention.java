package dev.sessionstore.memory.internal;

import dev.sessionstore.Event;
import dev.sessionstore.Retention;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.RetentionReport;
import dev.sessionstore.spi.RetentionRules;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retention of an in-memory store: each session is judged and changed under its own lock, by the shared
 * {@link RetentionRules}; a dry run takes the same locks and asks the same questions, and changes nothing. A cut
 * leaves the storages that forks share as they are ({@link SessionLog#cutThrough}), and a deletion drops only the
 * session's references to them, so forks keep what they show.
 *
 * <p>When the store was built with a schedule, {@link #start} runs the policy every interval by the store clock on
 * the store's one timer thread ({@link DeadlineScheduler}, the one that fires tool-call deadlines).
 */
final class MemoryRetention implements Retention {

  private static final Logger LOG = LoggerFactory.getLogger(MemoryRetention.class);
  /** The scheduler key of the sweep; tool-call keys always hold U+0000, so they never meet it. */
  private static final String SWEEP_KEY = "retention";

  private final StoreContext context;
  private final SessionRegistry registry;
  private final MemoryModelCallAudit modelCalls;

  MemoryRetention(StoreContext context, SessionRegistry registry, MemoryModelCallAudit modelCalls) {
    this.context = context;
    this.registry = registry;
    this.modelCalls = modelCalls;
  }

  @Override
  public RetentionReport apply(RetentionPolicy policy) {
    return run(policy, false);
  }

  @Override
  public RetentionReport dryRun(RetentionPolicy policy) {
    return run(policy, true);
  }

  /** Applies {@code policy} every {@code interval} of the store clock from now on, until the store is closed. */
  void start(RetentionPolicy policy, Duration interval, DeadlineScheduler scheduler) {
    scheduler.schedule(SWEEP_KEY, context.now().plus(interval), () -> {
      if (context.isClosed()) {
        return;
      }
      try {
        LOG.debug("session-store: scheduled retention removed {}", apply(policy));
      } finally {
        start(policy, interval, scheduler);
      }
    });
  }

  private RetentionReport run(RetentionPolicy policy, boolean dryRun) {
    Instant now = context.now();
    Instant idleCutoff = policy.idleSessionAge().map(age -> RetentionRules.cutoff(now, age)).orElse(null);
    Instant auditCutoff = policy.modelCallAge().map(age -> RetentionRules.cutoff(now, age)).orElse(null);
    long sessions = 0;
    long events = 0;
    long rows = 0;
    for (SessionState listed : List.copyOf(registry.all())) {
      String id = listed.id;
      if (idleCutoff != null) {
        boolean idle = dryRun
            ? registry.withExisting(id, state -> isIdle(policy, state, idleCutoff), () -> false)
            : registry.deleteIf(id, state -> isIdle(policy, state, idleCutoff));
        if (idle) {
          sessions++;
          continue;
        }
      }
      if (policy.maxEventsPerSession().isPresent()) {
        int max = policy.maxEventsPerSession().getAsInt();
        events += registry.withExisting(id, state -> cut(state, max, dryRun), () -> 0);
      }
      if (auditCutoff != null) {
        rows += registry.withExisting(id, state -> dryRun ? modelCalls.countBefore(state, auditCutoff)
            : modelCalls.enabled() ? MemoryModelCallAudit.deleteBefore(state, auditCutoff) : 0, () -> 0);
      }
    }
    return new RetentionReport(dryRun, sessions, events, rows);
  }

  private static boolean isIdle(RetentionPolicy policy, SessionState state, Instant cutoff) {
    SessionLog log = state.log;
    List<Event> last = log.range(log.lastSeq() - 1, log.lastSeq());
    Instant lastEventAt = last.isEmpty() ? null : last.get(0).timestamp();
    return RetentionRules.isIdle(policy, state.session(), lastEventAt, cutoff);
  }

  /** Cuts (or, dry, counts) what the events-per-session rule removes from the session; the caller holds its lock. */
  private static int cut(SessionState state, int max, boolean dryRun) {
    SessionLog log = state.log;
    long first = log.firstSeq();
    long through = RetentionRules.cutThrough(first, log.lastSeq(), state.summaries.keySet(), max);
    if (through < first) {
      return 0;
    }
    if (dryRun) {
      return (int) (through - first + 1);
    }
    int removed = log.cutThrough(through);
    state.dropCutRequestEvents();
    return removed;
  }
}
