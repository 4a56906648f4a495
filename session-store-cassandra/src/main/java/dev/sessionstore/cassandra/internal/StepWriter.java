package dev.sessionstore.cassandra.internal;

import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.uuid.Uuids;
import dev.sessionstore.Capability;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointChange;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Event;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.OutcomeUnknownException;
import dev.sessionstore.Run;
import dev.sessionstore.Session;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Step;
import dev.sessionstore.StepResult;
import dev.sessionstore.StoreFailureException;
import dev.sessionstore.Summary;
import dev.sessionstore.UnsupportedCapabilityException;
import dev.sessionstore.cassandra.internal.Rows.Header;
import dev.sessionstore.spi.EventBatch;
import dev.sessionstore.spi.Failures;
import dev.sessionstore.spi.StepLog;
import dev.sessionstore.spi.Upserts;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits a {@link Step} to its session's partition as one conditional batch (guarantees 1, 3, 4, 5, 16 and 17 of
 * docs/guarantees.md). Every write of the store (appends, session and run upserts, metadata merges, cuts) is a step.
 *
 * <p><b>One attempt</b> reads the partition's header (its {@code head}, a time-based id every write replaces, and the
 * session) and the stored events with the step's ids, lets the shared rules ({@link StepLog}, {@link Upserts}) decide
 * what the step changes, and writes it all in one batch on the partition conditioned on {@code IF head = <read>}.
 * The condition makes the read and the write one linearizable step: if any write reached the partition in between,
 * nothing is applied and the attempt starts over from a fresh read, where the ids are checked before the seq, so a
 * retried batch finds its own events and returns their stored seqs. A head is never reused (it is time-based, not a
 * counter), so a deleted and re-created session cannot pass a condition read before the deletion.
 *
 * <p><b>Unknown outcomes.</b> When a conditional write times out or its connection is lost, it may or may not have
 * been applied. The writer settles it within the retry timeout: the next attempt reads at the serial consistency,
 * which completes or supersedes the write still in flight; if the head is the one the lost write set, it was applied
 * and its result is returned; otherwise the attempt re-plans against what is stored (its events replayed by id when
 * they are there). When the timeout passes first, the caller gets {@link OutcomeUnknownException}: retrying with the
 * same ids is safe.
 */
final class StepWriter {

  private static final Logger LOG = LoggerFactory.getLogger(StepWriter.class);

  /** Bytes a row costs beyond its texts: keys, clustering, timestamps, cell headers (an upper bound). */
  private static final int ROW_OVERHEAD = 200;

  private final Cql cql;
  private final PartitionReader reader;
  private final NameClaims names;
  private final SessionIndex index;
  private final SessionQueue queue;
  private final SessionWaiters waiters;
  private final String ns;

  StepWriter(Cql cql, PartitionReader reader, NameClaims names, SessionIndex index, SessionQueue queue,
      SessionWaiters waiters) {
    this.cql = cql;
    this.reader = reader;
    this.names = names;
    this.index = index;
    this.queue = queue;
    this.waiters = waiters;
    this.ns = cql.settings.namespace();
  }

  /**
   * Commits {@code step}; with {@code mustExist}, an unknown session is a {@link dev.sessionstore.NotFoundException}
   * (a metadata merge) instead of being created.
   */
  StepResult commit(Step step, boolean mustExist) {
    requireSupported(step);
    StepLog log = StepLog.of(step);
    return queue.run(step.sessionId(), () -> commit(step, log, mustExist).result);
  }

  /** The events {@code step} (events only) stores, for a caller that holds the session's queue already. */
  List<Event> commitQueued(Step step, boolean mustExist) {
    return commit(step, StepLog.of(step), mustExist).result.events();
  }

  /**
   * Deletes the session checkpoint {@code name} and says whether it was there; an unknown session is not created.
   */
  boolean deleteCheckpoint(String sessionId, String name) {
    Step step = Step.builder(sessionId).deleteCheckpoint(name).build();
    return queue.run(sessionId, () -> {
      try {
        return !commit(step, StepLog.of(step), true).removedCheckpoints.isEmpty();
      } catch (NotFoundException unknownSession) {
        return false;
      }
    });
  }

  private Attempt commit(Step step, StepLog log, boolean mustExist) {
    long deadline = System.nanoTime() + cql.settings.retryTimeout().toNanos();
    Attempt pending = null;
    RuntimeException unknown = null;
    for (int round = 0; ; round++) {
      Attempt attempt;
      try {
        Header header = reader.header(step.sessionId(), unknown != null);
        if (pending != null && pending.newHead.equals(header.head())) {
          return done(pending);
        }
        attempt = plan(step, log, mustExist, header, unknown != null);
      } catch (RuntimeException e) {
        if (!DriverFailures.isDriverFailure(e)) {
          throw e;
        }
        if (unknown == null) {
          throw DriverFailures.failed("reading session " + step.sessionId(), e);
        }
        pauseOrGiveUp(step, round, deadline, unknown);
        continue;
      }
      if (attempt.batch == null) {
        return attempt;
      }
      try {
        if (cql.write(attempt.batch).wasApplied()) {
          return done(attempt);
        }
        pending = null;
      } catch (RuntimeException e) {
        if (!DriverFailures.outcomeUnknown(e)) {
          if (unknown != null) {
            pauseOrGiveUp(step, round, deadline, unknown);
            continue;
          }
          throw DriverFailures.failed("writing to session " + step.sessionId(), e);
        }
        LOG.debug("outcome of a write to session {} unknown, settling it", step.sessionId(), e);
        unknown = e;
        pending = attempt;
      }
      if (unknown == null && System.nanoTime() - deadline > 0) {
        throw new StoreFailureException("session " + step.sessionId() + ": every attempt lost the race for the "
            + "partition within " + cql.settings.retryTimeout() + "; nothing was written", true, null);
      }
      pauseOrGiveUp(step, round, deadline, unknown);
    }
  }

  private Attempt done(Attempt attempt) {
    if (attempt.releasedName != null) {
      names.releaseAfterCommit(attempt.releasedName, attempt.result.session().id());
    }
    if (attempt.changesLog) {
      waiters.signal();
    }
    return attempt;
  }

  /** Waits a little (more each round, with jitter) before the next attempt; gives up past the deadline. */
  private static void pauseOrGiveUp(Step step, int round, long deadline, RuntimeException unknown) {
    if (unknown != null && System.nanoTime() - deadline > 0) {
      throw new OutcomeUnknownException("the outcome of a write to session " + step.sessionId()
          + " is unknown and could not be settled in time; retrying with the same ids is safe", unknown);
    }
    long maxMicros = Math.min(50_000, 500L << Math.min(round, 7));
    LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(maxMicros / 2, maxMicros + 1) * 1_000);
  }

  private static void requireSupported(Step step) {
    if (!step.toolCalls().isEmpty() || !step.resolutions().isEmpty()) {
      throw new UnsupportedCapabilityException(Capability.TOOL_CALLS);
    }
    if (!step.deadlines().isEmpty()) {
      throw new UnsupportedCapabilityException(Capability.DEADLINES);
    }
    if (step.modelCall().isPresent()) {
      throw new UnsupportedCapabilityException(Capability.MODEL_CALL_AUDIT);
    }
  }

  /** Decides what {@code step} writes against the partition as {@code header} shows it. */
  private Attempt plan(Step step, StepLog log, boolean mustExist, Header header, boolean serial) {
    String sessionId = step.sessionId();
    if (!header.exists() && (mustExist || step.truncateFrom().isPresent())) {
      throw Failures.sessionNotFound(sessionId);
    }
    StepLog.Plan plan = log.plan(header.lastSeq(), reader.eventsByIds(sessionId, log.ids(), serial),
        from -> reader.eventsFrom(sessionId, from, serial));
    Instant now = cql.settings.clock().instant().truncatedTo(ChronoUnit.MICROS);
    Session stored = header.session();
    Session session = step.session().map(write -> Upserts.session(write, stored, now))
        .orElseGet(() -> stored != null ? stored : Upserts.session(SessionWrite.of(sessionId), null, now));
    Optional<Run> run = step.run().map(write -> Upserts.run(write,
        reader.run(sessionId, write.id(), serial).orElse(null), now));
    long lastSeq = (plan.cuts() ? plan.cutFrom() - 1 : header.lastSeq()) + plan.fresh().size();
    List<Event> appended = new ArrayList<>(plan.fresh().size());
    for (NewEvent event : plan.fresh()) {
      appended.add(EventBatch.toStored(sessionId, event, lastSeq - plan.fresh().size() + appended.size() + 1, now));
    }
    long lastSeqAfter = lastSeq;
    Optional<Summary> summary = step.summary().map(asked -> {
      if (asked.toSeq() > lastSeqAfter) {
        throw Failures.summaryPastLastSeq(sessionId, asked.toSeq(), lastSeqAfter);
      }
      return new Summary(sessionId, asked.fromSeq(), asked.toSeq(), asked.content(), asked.version(), now);
    });
    List<Checkpoint> checkpoints = new ArrayList<>();
    for (CheckpointChange change : step.checkpoints()) {
      if (change.data() != null) {
        checkpoints.add(new Checkpoint(CheckpointKey.of(sessionId, change.name()), change.data(), now));
      }
    }
    StepResult result = new StepResult(session.withLastSeq(lastSeq), run, plan.removes(), plan.results(appended),
        List.of(), List.of(), summary, checkpoints, Optional.empty());
    boolean writesSomething = !header.exists() || step.session().isPresent() || run.isPresent()
        || plan.changesLog() || !step.checkpoints().isEmpty() || summary.isPresent();
    if (!writesSomething) {
      return new Attempt(null, null, result, null, false, Set.of());
    }
    UUID newHead = Uuids.timeBased();
    BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.LOGGED);
    long bytes = ROW_OVERHEAD + utf8(session.settings().text()) + metadataLength(session);
    batch.addStatement(cql.writeHeader.bind(newHead, lastSeq, session.name(), session.tenant(), session.agentId(),
        session.status().value(), session.settings().text(), session.metadata(),
        session.forkedFrom() == null ? null : session.forkedFrom().sessionId(),
        session.forkedFrom() == null ? null : session.forkedFrom().seq(),
        Micros.of(session.createdAt()), Micros.of(session.updatedAt()), ns, sessionId, header.head()));
    if (plan.cuts()) {
      // Row by row, and never a row this batch writes again: every statement of a conditional batch gets one
      // timestamp, at which a deletion shadows an insert, so a range deletion would hide the step's new events.
      Set<String> rewrittenIds = new HashSet<>();
      appended.forEach(event -> rewrittenIds.add(event.id()));
      for (Event removed : reader.eventsFrom(sessionId, plan.cutFrom(), serial)) {
        if (removed.seq() > lastSeq) {
          batch.addStatement(cql.deleteEvent.bind(ns, sessionId, Rows.eventKey(removed.seq())));
        }
        if (!rewrittenIds.contains(removed.id())) {
          batch.addStatement(cql.deleteId.bind(ns, sessionId, removed.id()));
        }
      }
      for (Summary covering : reader.summariesFrom(sessionId, plan.cutFrom(), serial)) {
        if (summary.isEmpty() || summary.get().toSeq() != covering.toSeq()) {
          batch.addStatement(cql.deleteSummary.bind(ns, sessionId, Rows.eventKey(covering.toSeq())));
        }
      }
    }
    if (summary.isPresent()) {
      Summary put = summary.get();
      batch.addStatement(cql.insertSummary.bind(ns, sessionId, Rows.eventKey(put.toSeq()), put.toSeq(),
          put.fromSeq(), put.content().text(), put.version(), Micros.of(put.createdAt())));
      bytes += ROW_OVERHEAD + utf8(put.content().text());
    }
    for (Event event : appended) {
      batch.addStatement(cql.insertEvent.bind(ns, sessionId, Rows.eventKey(event.seq()), event.seq(), event.id(),
          event.type(), event.runId(), event.agentId(), event.parentId(), event.payload().text(),
          Micros.of(event.timestamp())));
      batch.addStatement(cql.insertId.bind(ns, sessionId, event.id(), event.seq()));
      bytes += 2 * ROW_OVERHEAD + 2L * utf8(event.id()) + utf8(event.type()) + utf8(event.payload().text())
          + utf8(event.runId()) + utf8(event.agentId()) + utf8(event.parentId());
    }
    if (run.isPresent()) {
      Run saved = run.get();
      batch.addStatement(cql.insertRun.bind(ns, sessionId, saved.id(), saved.status().name(), saved.usage().text(),
          saved.error() == null ? null : saved.error().text(), Micros.of(saved.createdAt()),
          Micros.of(saved.updatedAt()), newHead));
      bytes += ROW_OVERHEAD + utf8(saved.usage().text()) + (saved.error() == null ? 0 : utf8(saved.error().text()));
    }
    List<String> deleted = step.checkpoints().stream().filter(change -> change.data() == null)
        .map(CheckpointChange::name).toList();
    Set<String> removedCheckpoints = deleted.isEmpty() ? Set.of()
        : reader.checkpointNames(sessionId, deleted, serial);
    for (CheckpointChange change : step.checkpoints()) {
      if (change.data() == null) {
        batch.addStatement(cql.deleteCheckpoint.bind(ns, sessionId, change.name()));
      } else {
        batch.addStatement(cql.insertCheckpoint.bind(ns, sessionId, change.name(), ByteBuffer.wrap(change.data()),
            Micros.of(now)));
        bytes += ROW_OVERHEAD + utf8(change.name()) + change.data().length;
      }
    }
    requireFits(sessionId, bytes);
    // what spans partitions goes first, idempotently: the listing index, then the name claim (the last check)
    if (!header.exists()) {
      index.add(sessionId);
    }
    if (session.name() != null && (stored == null || !session.name().equals(stored.name()))) {
      names.claim(session.name(), sessionId);
    }
    String releasedName = stored != null && stored.name() != null && !stored.name().equals(session.name())
        ? stored.name() : null;
    return new Attempt(batch.build(), newHead, result, releasedName, plan.changesLog(), removedCheckpoints);
  }

  /** Rejects, before anything is written, a batch larger than one mutation may be. */
  private void requireFits(String sessionId, long bytes) {
    long limit = cql.settings.maxMutationBytes();
    if (bytes > limit) {
      throw new InvalidArgumentException("events", "the write to session " + sessionId + " needs about " + bytes
          + " bytes, more than the store's maxMutationBytes of " + limit + " (Cassandra rejects a mutation larger "
          + "than half its commitlog_segment_size); split the batch");
    }
  }

  private static long metadataLength(Session session) {
    return session.metadata().entrySet().stream().mapToLong(e -> utf8(e.getKey()) + utf8(e.getValue())).sum();
  }

  /** The UTF-8 length of {@code text} (0 for null), without encoding it. */
  private static long utf8(String text) {
    if (text == null) {
      return 0;
    }
    long bytes = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;
    }
    return bytes;
  }

  /**
   * One planned write: the batch (null when the step writes nothing), the head it sets, what it returns, the name it
   * gives up, whether it changes the log and which of its checkpoint deletions find a checkpoint.
   */
  private record Attempt(BatchStatement batch, UUID newHead, StepResult result, String releasedName,
      boolean changesLog, Set<String> removedCheckpoints) {
  }
}
