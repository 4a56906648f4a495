package dev.sessionstore.cassandra.internal;

import dev.sessionstore.Retention;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.RetentionReport;
import dev.sessionstore.cassandra.internal.Rows.Header;
import dev.sessionstore.spi.RetentionRules;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retention of a Cassandra store, session by session through the namespace's listing index ({@link SessionIndex}),
 * each session judged by the shared {@link RetentionRules} and changed by conditional batches on its partition's
 * head: an idle session is deleted as {@link CassandraSessions#delete} deletes it, judged again against the head the
 * deletion's batch is conditioned on ({@link CassandraSessions#deleteIf}); old chapters are cut by {@link HeadCut};
 * old audit rows removed by {@link CassandraModelCallAudit#deleteBefore}. So a write landing meanwhile makes the
 * session be judged again, and of several store instances applying one policy, each session is deleted, cut or
 * cleaned by the one whose batch applied, and counted by that one only: the reports of all instances add up to what
 * was removed. A dry run asks the same questions with reads only. Forks are partitions of their own, holding copies
 * of what they show, so a deletion or cut of a parent never changes them.
 *
 * <p>Across sessions nothing is atomic, and nothing needs to be: each session is whole after each batch (deleted or
 * not, cut through a chapter's end or not), and a run cut short leaves the rest to the next one.
 *
 * <p><b>Schedule.</b> A store built with a policy and an interval applies it on the namespace's schedule, which the
 * cluster holds ({@link RetentionSchedule}): once per interval between all instances so built, by whichever claims
 * the sweep first, also across restarts. A sweep reads the listing index and every session's header (one read per
 * 500 sessions), then reads more only of sessions a rule may apply to. A failed sweep is logged, and the next one
 * runs when due.
 */
final class CassandraRetention implements Retention, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(CassandraRetention.class);

  private final Cql cql;
  private final PartitionReader reader;
  private final SessionIndex index;
  private final CassandraSessions sessions;
  private final HeadCut cut;
  private final CassandraModelCallAudit audit;
  private RetentionSchedule schedule;

  CassandraRetention(Cql cql, PartitionReader reader, SessionIndex index, CassandraSessions sessions, HeadCut cut,
      CassandraModelCallAudit audit) {
    this.cql = cql;
    this.reader = reader;
    this.index = index;
    this.sessions = sessions;
    this.cut = cut;
    this.audit = audit;
  }

  @Override
  public RetentionReport apply(RetentionPolicy policy) {
    return run(policy, false);
  }

  @Override
  public RetentionReport dryRun(RetentionPolicy policy) {
    return run(policy, true);
  }

  /**
   * Applies {@code policy} once per {@code interval} of the namespace's schedule ({@link RetentionSchedule}: in this
   * instance when it claims the sweep), until {@link #close}.
   */
  synchronized void start(RetentionPolicy policy, Duration interval) {
    schedule = new RetentionSchedule(cql, interval, () -> LOG.debug("scheduled retention of namespace {} removed {}",
        cql.settings.namespace(), apply(policy)));
  }

  /** Stops the schedule, if any; a sweep under way stops at its next request. */
  @Override
  public synchronized void close() {
    if (schedule != null) {
      schedule.close();
    }
  }

  private RetentionReport run(RetentionPolicy policy, boolean dryRun) {
    Instant now = cql.settings.clock().instant();
    Optional<Instant> idleCutoff = policy.idleSessionAge().map(age -> RetentionRules.cutoff(now, age));
    Optional<Instant> auditCutoff = audit.enabled()
        ? policy.modelCallAge().map(age -> RetentionRules.cutoff(now, age)) : Optional.empty();
    long deleted = 0;
    long events = 0;
    long rows = 0;
    List<Header> listed = Reads.run(() -> reader.headers(index.ids()));
    for (Header header : listed) {
      String sessionId = header.session().id();
      if (idleCutoff.isPresent() && Reads.run(() -> isIdle(policy, sessionId, header, idleCutoff.get()))) {
        if (dryRun || sessions.deleteIf(sessionId, current -> isIdle(policy, sessionId, current, idleCutoff.get()))) {
          deleted++;
          continue;
        }
      }
      if (policy.maxEventsPerSession().isPresent()) {
        int max = policy.maxEventsPerSession().getAsInt();
        events += dryRun ? Reads.run(() -> cut.count(sessionId, header, max)) : cut.apply(sessionId, header, max);
      }
      if (auditCutoff.isPresent()) {
        rows += dryRun ? audit.countBefore(sessionId, auditCutoff.get())
            : audit.deleteBefore(sessionId, auditCutoff.get());
      }
    }
    return new RetentionReport(dryRun, deleted, events, rows);
  }

  /**
   * Whether the idle-session rule deletes the session as {@code header} shows it. The rule is first asked as if the
   * log were empty, which answers no without reading when the session itself is recent or out of scope; only then is
   * the last event's time read (one row by key).
   */
  private boolean isIdle(RetentionPolicy policy, String sessionId, Header header, Instant cutoff) {
    return RetentionRules.isIdle(policy, header.session(), null, cutoff)
        && RetentionRules.isIdle(policy, header.session(), reader.lastEventAt(sessionId, header, false), cutoff);
  }
}
