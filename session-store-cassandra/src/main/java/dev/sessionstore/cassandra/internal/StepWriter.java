package dev.sessionstore.cassandra.internal;

import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.uuid.Uuids;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointChange;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.ConflictException;
import dev.sessionstore.Event;
import dev.sessionstore.ImportOutcome;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.ModelCall;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.OutcomeUnknownException;
import dev.sessionstore.Run;
import dev.sessionstore.Session;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Step;
import dev.sessionstore.Resolution;
import dev.sessionstore.StepOutcome;
import dev.sessionstore.StepResult;
import dev.sessionstore.StoreFailureException;
import dev.sessionstore.Summary;
import dev.sessionstore.ToolCall;
import dev.sessionstore.cassandra.internal.Rows.Header;
import dev.sessionstore.spi.ArchiveRules;
import dev.sessionstore.spi.EventBatch;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.spi.Failures;
import dev.sessionstore.spi.ForkRule;
import dev.sessionstore.spi.RetryCause;
import dev.sessionstore.spi.SettledOutcome;
import dev.sessionstore.spi.StepLog;
import dev.sessionstore.spi.StoreEventHub;
import dev.sessionstore.spi.ToolCallTransitions;
import dev.sessionstore.spi.Upserts;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
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
 * <p><b>The first attempt assumes.</b> A step that cuts nothing is first planned against the header this instance's
 * last write to the session left ({@link KnownHeaders}; read when there is none), with its ids taken to be new and
 * each id row written {@code IF NOT EXISTS} in the same batch. Both assumptions are conditions of the batch, so it
 * applies only where a read would have planned the same write: a lone writer's append is one Paxos round and no
 * read. Anything else (the condition fails, the plan refuses the write or writes nothing) is no answer: the next
 * attempt reads the header and the ids, at once.
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
  static final int ROW_OVERHEAD = 200;

  /** Bytes an element of a set column costs beyond its text: its cell header and timestamp (an upper bound). */
  private static final int SET_ELEMENT_OVERHEAD = 16;

  private final Cql cql;
  private final PartitionReader reader;
  private final NameClaims names;
  private final SessionIndex index;
  private final SessionQueue queue;
  private final SessionWaiters waiters;
  /** Where the writer reports its retries and the doubts it settled. */
  private final StoreEventHub events;
  private final String ns;
  /** The header each session had after this instance's last write to it: what its next write may assume. */
  private final KnownHeaders known = new KnownHeaders();

  StepWriter(Cql cql, PartitionReader reader, NameClaims names, SessionIndex index, SessionQueue queue,
      SessionWaiters waiters, StoreEventHub events) {
    this.cql = cql;
    this.events = events;
    this.reader = reader;
    this.names = names;
    this.index = index;
    this.queue = queue;
    this.waiters = waiters;
    this.ns = cql.settings.namespace();
  }

  /**
   * Commits {@code step} and returns what it stored; for steps without resolutions, which are never rejected. With
   * {@code mustExist}, an unknown session is a {@link dev.sessionstore.NotFoundException} (a metadata merge) instead
   * of being created.
   */
  StepResult commit(Step step, boolean mustExist) {
    return write(step, mustExist, Set.of()).outcome.orElseThrow();
  }

  /**
   * Commits {@code step} as {@link #commit} does and says how: its outcome (rejected when a resolution is stale), the
   * tool calls it names (and those of {@code lookAt}) as they stood before it, a due call already expired, and
   * which checkpoint deletions found a checkpoint. The calls of {@code lookAt} that are due are expired by the same
   * conditional batch, also when the step is otherwise empty or rejected.
   */
  Attempt write(Step step, boolean mustExist, Set<String> lookAt) {
    StepLog log = StepLog.of(step);
    return queue.run(step.sessionId(), () -> commit(step.sessionId(), step.truncateFrom().isEmpty(),
        (header, serial, assumeNewIds) -> plan(step, log, mustExist, lookAt, header, serial, assumeNewIds)));
  }

  /**
   * The session's call {@code toolCallId} as it stands after a compare-and-set that expires it if it is due (pending,
   * its deadline reached by the store clock); null when the call or its session is unknown.
   */
  ToolCall expire(String sessionId, String toolCallId) {
    return expireDue(sessionId, toolCallId).call();
  }

  /**
   * {@link #expire}, also saying whether this call's compare-and-set is the write that expired it (false when it was
   * expired, resolved or not due before, or is unknown).
   */
  Expiry expireDue(String sessionId, String toolCallId) {
    try {
      Attempt attempt = write(Step.builder(sessionId).build(), true, Set.of(toolCallId));
      ToolCall call = attempt.callsBefore.get(toolCallId);
      return new Expiry(call, attempt.batch != null && call != null && call.status() == ToolCallStatus.EXPIRED);
    } catch (NotFoundException unknownSession) {
      return new Expiry(null, false);
    }
  }

  /** A call as {@link #expireDue} left it (null if unknown), and whether that write expired it. */
  record Expiry(ToolCall call, boolean expiredHere) {
  }

  /** The events {@code step} (events only) stores, for a caller that holds the session's queue already. */
  List<Event> commitQueued(Step step, boolean mustExist) {
    StepLog log = StepLog.of(step);
    return commit(step.sessionId(), step.truncateFrom().isEmpty(),
        (header, serial, assumeNewIds) -> plan(step, log, mustExist, Set.of(), header, serial, assumeNewIds))
        .outcome.orElseThrow().events();
  }

  /**
   * Deletes the session checkpoint {@code name} and says whether it was there; an unknown session is not created.
   */
  boolean deleteCheckpoint(String sessionId, String name) {
    try {
      return !write(Step.builder(sessionId).deleteCheckpoint(name).build(), true, Set.of()).removedCheckpoints
          .isEmpty();
    } catch (NotFoundException unknownSession) {
      return false;
    }
  }

  /**
   * Creates {@code forkId} as a fork of {@code parentId} at {@code atSeq} (guarantee 11 of docs/guarantees.md): what
   * {@link ForkRule} says the fork takes, read from the parent in one consistent view, is copied into the fork's
   * partition by one conditional batch that also creates the session, so a fork is whole or absent, and owns its
   * copies (cutting or deleting the parent never changes it). It costs a copy of the prefix, which must fit one
   * batch ({@link StoreSettings#maxMutationBytes}).
   *
   * @throws dev.sessionstore.NotFoundException if the parent is unknown or has no event {@code atSeq}
   * @throws dev.sessionstore.ConflictException if a session {@code forkId} exists
   */
  Session fork(String parentId, long atSeq, String forkId) {
    ForkSource source = Reads.run(() -> reader.consistent(parentId, header -> forkSource(parentId, header, atSeq)));
    return queue.run(forkId, () -> commit(forkId, false,
        (header, serial, assumeNewIds) -> planFork(source, forkId, atSeq, header)))
        .outcome.orElseThrow().session();
  }

  private ForkSource forkSource(String parentId, Header header, long atSeq) {
    if (!header.exists()) {
      throw Failures.sessionNotFound(parentId);
    }
    if (atSeq <= header.cutSeq() || atSeq < 1 || atSeq > header.lastSeq()) {
      throw Failures.forkPointNotFound(parentId, atSeq);
    }
    Instant now = cql.settings.clock().instant().truncatedTo(ChronoUnit.MICROS);
    List<Event> events = reader.eventsBetween(parentId, header, 0, atSeq);
    Set<String> eventIds = new HashSet<>();
    Set<String> runIds = new HashSet<>();
    for (Event event : events) {
      eventIds.add(event.id());
      if (event.runId() != null) {
        runIds.add(event.runId());
      }
    }
    List<ToolCall> calls = new ArrayList<>();
    for (ToolCall call : reader.toolCalls(parentId, false)) {
      if (call.requestEventId() != null && eventIds.contains(call.requestEventId())) {
        calls.add(ToolCallTransitions.isDue(call, now) ? ToolCallTransitions.expired(call, now) : call);
      }
    }
    return new ForkSource(header.session(), header.cutSeq(), events,
        reader.summaries(parentId).stream().filter(summary -> ForkRule.takesSummary(summary, atSeq)).toList(),
        reader.runs(parentId).stream().map(PartitionReader.SavedRun::run).filter(run -> runIds.contains(run.id()))
            .toList(),
        calls, reader.checkpoints(parentId));
  }

  private Attempt planFork(ForkSource source, String forkId, long atSeq, Header header) {
    if (header.exists()) {
      throw Failures.forkTargetExists(forkId);
    }
    Session fork = ForkRule.session(source.parent(), forkId, atSeq,
        cql.settings.clock().instant().truncatedTo(ChronoUnit.MICROS));
    UUID newHead = Uuids.timeBased();
    BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.LOGGED);
    batch.addStatement(bindHeader(newHead, atSeq, source.cutSeq(), fork, header));
    long bytes = ROW_OVERHEAD + utf8(fork.settings().text()) + metadataLength(fork);
    for (Event event : source.events()) {
      bytes += addEvent(batch, ForkRule.copy(event, forkId), false);
    }
    for (Summary summary : source.summaries()) {
      bytes += addSummary(batch, ForkRule.copy(summary, forkId));
    }
    for (Run run : source.runs()) {
      bytes += addRun(batch, ForkRule.copy(run, forkId), newHead);
    }
    List<ToolCall> calls = source.calls().stream().map(call -> ForkRule.copy(call, forkId)).toList();
    for (ToolCall call : calls) {
      bytes += addCall(batch, forkId, call);
    }
    for (Checkpoint checkpoint : source.checkpoints()) {
      bytes += addCheckpoint(batch, ForkRule.copy(checkpoint, forkId));
    }
    requireFits(forkId, bytes);
    index.add(forkId);
    DeadlineSweeper.hint(cql, forkId, calls.stream()
        .filter(call -> call.status() == ToolCallStatus.PENDING && call.deadline() != null).toList());
    return new Attempt(batch.build(), newHead, new StepOutcome.Committed(emptyResult(fork)), null, true, Set.of(),
        Map.of(), null);
  }

  /**
   * Stores {@code archive} as its session, exactly as archived, in one conditional batch that also creates the
   * session (guarantee 4 of docs/guarantees.md), unless the session exists: then the outcome compares the stored
   * session, as a read sees it now, with the archive ({@link ArchiveRules#outcomeOver}) and nothing is written.
   * An import whose outcome was unknown and is run again finds its session stored as archived: unchanged.
   *
   * @param stored the stored session's archive, read against the header an attempt read
   * @return the outcome; {@link ImportOutcome#CONFLICT} also when another session holds the archive's name
   */
  ImportOutcome importArchive(SessionArchive archive, Function<Header, SessionArchive> stored) {
    String sessionId = archive.sessionId();
    ImportOutcome[] outcome = new ImportOutcome[1];
    try {
      queue.run(sessionId, () -> commit(sessionId, false, (header, serial, assumeNewIds) -> {
        if (header.exists()) {
          outcome[0] = ArchiveRules.outcomeOver(stored.apply(header), archive);
          return new Attempt(null, null, new StepOutcome.Committed(emptyResult(header.session())), null, false,
              Set.of(), Map.of(), null);
        }
        outcome[0] = ImportOutcome.IMPORTED;
        return planImport(archive, header);
      }));
    } catch (ConflictException nameTaken) {
      return ImportOutcome.CONFLICT;
    }
    return outcome[0];
  }

  private Attempt planImport(SessionArchive archive, Header header) {
    String sessionId = archive.sessionId();
    Session session = archive.session();
    session.expiry().ifPresent(expiry -> Micros.requireStorable("archive.session.expiresAt", expiry));
    UUID newHead = Uuids.timeBased();
    BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.LOGGED);
    batch.addStatement(bindHeader(newHead, archive.lastSeq(), archive.cutSeq(), session, header));
    long bytes = ROW_OVERHEAD + utf8(session.settings().text()) + metadataLength(session);
    for (Event event : archive.events()) {
      bytes += addEvent(batch, event, false);
    }
    for (Summary summary : archive.summaries()) {
      bytes += addSummary(batch, summary);
    }
    for (Run run : archive.runs()) {
      bytes += addRun(batch, run, newHead);
    }
    for (ToolCall call : archive.toolCalls()) {
      bytes += addCall(batch, sessionId, call);
    }
    for (Checkpoint checkpoint : archive.checkpoints()) {
      bytes += addCheckpoint(batch, checkpoint);
    }
    if (cql.settings.modelCallAudit()) {
      for (ModelCall row : archive.modelCalls()) {
        bytes += addModelCall(batch, row);
      }
    }
    requireFits(sessionId, bytes);
    index.add(sessionId);
    DeadlineSweeper.hint(cql, sessionId, archive.toolCalls().stream()
        .filter(call -> call.status() == ToolCallStatus.PENDING && call.deadline() != null).toList());
    if (session.name() != null) {
      names.claim(session.name(), sessionId);
    }
    return new Attempt(batch.build(), newHead, new StepOutcome.Committed(emptyResult(session)), null, true, Set.of(),
        Map.of(), null);
  }

  /**
   * A write of a session's partition that is no step, planned against the header an attempt read: the statements it
   * adds to the conditional batch on the head, the cut seq the header keeps ({@link Header#cutSeq()} unless the write
   * cuts the log), and how many rows of its kind it removes.
   */
  record PartitionChange(List<BatchableStatement<?>> statements, long cutSeq, long removed) {
  }

  /** Plans a {@link PartitionChange} against the header an attempt read (of a stored session); null: no change. */
  @FunctionalInterface
  interface ChangePlanner {
    PartitionChange plan(Header header, boolean serial);
  }

  /**
   * Applies what {@code planner} plans for the session's partition as one conditional batch on its head, as every
   * write of the store is (re-planned against a fresh read when another write landed first, an unknown outcome
   * settled by the serial read), and returns how many rows the applied plan removed: 0 when the session is unknown
   * or the plan writes nothing. A write that settles to one another instance applied first counts nothing here, so
   * of two instances removing the same rows, only the one whose batch applied counts them.
   */
  long change(String sessionId, ChangePlanner planner) {
    Map<UUID, Long> removed = new HashMap<>();
    Attempt applied = queue.run(sessionId, () -> commit(sessionId, false, (header, serial, assumeNewIds) -> {
      PartitionChange change = header.exists() ? planner.plan(header, serial) : null;
      if (change == null) {
        return new Attempt(null, null, null, null, false, Set.of(), Map.of(), null);
      }
      UUID newHead = Uuids.timeBased();
      BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.LOGGED)
          .addStatement(bindHeader(newHead, header.lastSeq(), change.cutSeq(), header.session(), header));
      change.statements().forEach(batch::addStatement);
      removed.put(newHead, change.removed());
      return new Attempt(batch.build(), newHead, null, null, false, Set.of(), Map.of(), null);
    }));
    return applied.newHead == null ? 0 : removed.get(applied.newHead);
  }

  /** The result of a write that is no step: the session, nothing else. */
  private static StepResult emptyResult(Session session) {
    return new StepResult(session, Optional.empty(), 0, List.of(), List.of(), List.of(), Optional.empty(), List.of(),
        Optional.empty());
  }

  /** What a fork copies from its parent, whose log starts after {@code cutSeq}: so does the fork's. */
  private record ForkSource(Session parent, long cutSeq, List<Event> events, List<Summary> summaries, List<Run> runs,
      List<ToolCall> calls, List<Checkpoint> checkpoints) {
  }

  /**
   * Plans one attempt of a write against the partition's header; {@code serial} when it settles a doubt;
   * {@code assumeNewIds} when the attempt does not read the stored events with the write's ids but takes them to be
   * new, and writes each id row {@code IF NOT EXISTS} instead, so that its batch applies only if they are.
   */
  private interface Planner {
    Attempt plan(Header header, boolean serial, boolean assumeNewIds);
  }

  /**
   * Runs attempts of {@code planner}'s write until one applies, is settled, or needs no batch. With
   * {@code optimistic}, the first attempt assumes the header this instance's last write left ({@link KnownHeaders};
   * read when none) and takes the write's ids to be new ({@link Planner}), so a lone writer's append is one Paxos
   * round and no read; only an applied batch of that attempt is an answer: when its condition fails, or its plan
   * refuses the write or writes nothing, the next attempt reads what it had assumed, at once.
   */
  private Attempt commit(String sessionId, boolean optimistic, Planner planner) {
    long deadline = System.nanoTime() + cql.settings.retryTimeout().toNanos();
    Attempt pending = null;
    RuntimeException unknown = null;
    for (int round = 0; ; round++) {
      boolean assuming = optimistic && round == 0;
      Attempt attempt;
      try {
        Header header = assuming ? known.get(sessionId) : null;
        if (header == null) {
          header = reader.header(sessionId, unknown != null);
        }
        if (pending != null && pending.newHead.equals(header.head())) {
          events.outcomeSettled(SettledOutcome.APPLIED);
          return done(sessionId, pending);
        }
        attempt = planner.plan(header, unknown != null, assuming);
      } catch (RuntimeException e) {
        if (!DriverFailures.isDriverFailure(e)) {
          if (!assuming) {
            throw e;
          }
          known.forget(sessionId);
          continue;
        }
        if (unknown == null) {
          throw DriverFailures.failed("reading session " + sessionId, e);
        }
        pauseOrGiveUp(sessionId, round, deadline, unknown);
        events.retried(RetryCause.CONNECTION);
        continue;
      }
      if (attempt.batch == null) {
        if (assuming) {
          continue;
        }
        settled(unknown, SettledOutcome.APPLIED);
        return attempt;
      }
      try {
        if (cql.write(attempt.batch).wasApplied()) {
          settled(unknown, SettledOutcome.NOT_APPLIED);
          return done(sessionId, attempt);
        }
        known.forget(sessionId);
        pending = null;
        if (assuming) {
          continue;
        }
      } catch (RuntimeException e) {
        known.forget(sessionId);
        if (!DriverFailures.outcomeUnknown(e)) {
          if (unknown != null) {
            pauseOrGiveUp(sessionId, round, deadline, unknown);
            events.retried(RetryCause.CONNECTION);
            continue;
          }
          throw DriverFailures.failed("writing to session " + sessionId, e);
        }
        LOG.debug("outcome of a write to session {} unknown, settling it", sessionId, e);
        unknown = e;
        pending = attempt;
      }
      if (unknown == null && System.nanoTime() - deadline > 0) {
        throw new StoreFailureException("session " + sessionId + ": every attempt lost the race for the "
            + "partition within " + cql.settings.retryTimeout() + "; nothing was written", true, null);
      }
      pauseOrGiveUp(sessionId, round, deadline, unknown);
      if (pending == null) {
        // the batch lost the race for the partition's head: the next round plans and writes it again
        events.retried(RetryCause.CONFLICT);
      }
    }
  }

  /**
   * Reports how a doubt was settled, if there was one: the write's earlier attempt was found applied (its head, or its
   * ids, in the serial read), or missing and written now.
   */
  private void settled(RuntimeException unknown, SettledOutcome outcome) {
    if (unknown != null) {
      events.outcomeSettled(outcome);
    }
  }

  private Attempt done(String sessionId, Attempt attempt) {
    if (attempt.after != null) {
      known.remember(sessionId, attempt.after);
    } else {
      known.forget(sessionId);
    }
    if (attempt.releasedName != null) {
      names.releaseAfterCommit(attempt.releasedName, attempt.outcome.orElseThrow().session().id());
    }
    if (attempt.wakes) {
      waiters.signal(sessionId);
    }
    return attempt;
  }

  /** Waits a little (more each round, with jitter) before the next attempt; gives up past the deadline. */
  private static void pauseOrGiveUp(String sessionId, int round, long deadline, RuntimeException unknown) {
    if (unknown != null && System.nanoTime() - deadline > 0) {
      throw new OutcomeUnknownException("the outcome of a write to session " + sessionId
          + " is unknown and could not be settled in time; retrying with the same ids is safe", unknown);
    }
    pause(round);
  }

  /** Waits a little before the next attempt of a conditional write: more each round, with jitter. */
  static void pause(int round) {
    long maxMicros = Math.min(50_000, 500L << Math.min(round, 7));
    LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(maxMicros / 2, maxMicros + 1) * 1_000);
  }

  /** Decides what {@code step} writes against the partition as {@code header} shows it. */
  private Attempt plan(Step step, StepLog log, boolean mustExist, Set<String> lookAt, Header header,
      boolean serial, boolean assumeNewIds) {
    String sessionId = step.sessionId();
    WriterFences.check(sessionId, header, step.fence());
    if (!header.exists() && (mustExist || step.truncateFrom().isPresent())) {
      throw Failures.sessionNotFound(sessionId);
    }
    StepLog.Plan plan = log.plan(header.lastSeq(),
        assumeNewIds ? Map.of() : reader.eventsByIds(sessionId, log.ids(), serial),
        from -> reader.eventsFrom(sessionId, header, from, serial));
    Instant now = cql.settings.clock().instant().truncatedTo(ChronoUnit.MICROS);
    Session stored = header.session();
    step.session().map(SessionWrite::expiresAt)
        .ifPresent(expiry -> Micros.requireStorable("session.expiresAt", expiry));
    Session session = step.session().map(write -> Upserts.session(write, stored, now))
        .orElseGet(() -> stored != null ? stored : Upserts.session(SessionWrite.of(sessionId), null, now));
    Optional<Run> run = step.run().map(write -> Upserts.run(write,
        reader.run(sessionId, write.id(), serial).orElse(null), now));
    List<Event> removedEvents = plan.cuts() ? reader.eventsFrom(sessionId, header, plan.cutFrom(), serial)
        : List.of();
    long lastSeq = (plan.cuts() ? plan.cutFrom() - 1 : header.lastSeq()) + plan.fresh().size();
    // a truncation below a retention cut leaves an empty log that ends before the truncated seq
    long cutSeq = plan.cuts() ? Math.min(header.cutSeq(), plan.cutFrom() - 1) : header.cutSeq();
    List<Event> appended = new ArrayList<>(plan.fresh().size());
    for (NewEvent event : plan.fresh()) {
      appended.add(EventBatch.toStored(sessionId, event, lastSeq - plan.fresh().size() + appended.size() + 1, now));
    }
    StepCalls calls = new StepCalls(sessionId, readCalls(step, lookAt, sessionId, serial), now);
    if (plan.cuts()) {
      calls.unlinkCut(removedEvents, appended, reader.toolCalls(sessionId, serial));
    }
    Set<String> foreign = log.foreignRequestEventIds();
    Map<String, Event> requesting = foreign.isEmpty() ? Map.of() : reader.eventsByIds(sessionId, foreign, serial);
    for (String eventId : foreign) {
      Event event = requesting.get(eventId);
      if (event == null || !plan.keeps(event)) {
        throw Failures.eventNotFound(sessionId, eventId);
      }
    }
    List<Resolution.Stale> stale = calls.apply(step);
    if (!stale.isEmpty()) {
      return rejected(sessionId, header, calls, new StepOutcome.Rejected(stale));
    }
    long lastSeqAfter = lastSeq;
    Optional<Summary> summary = step.summary().map(asked -> {
      if (asked.toSeq() > lastSeqAfter) {
        throw Failures.summaryPastLastSeq(sessionId, asked.toSeq(), lastSeqAfter);
      }
      return new Summary(sessionId, asked.fromSeq(), asked.toSeq(), asked.content(), asked.version(), now);
    });
    List<Checkpoint> checkpoints = new ArrayList<>();
    Map<String, Checkpoint> puts = new HashMap<>();
    for (CheckpointChange change : step.checkpoints()) {
      if (change.data() != null) {
        Checkpoint put = new Checkpoint(CheckpointKey.of(sessionId, change.name()), change.data(), now);
        checkpoints.add(put);
        puts.put(change.name(), put);
      }
    }
    Optional<ModelCall> audit = step.modelCall().filter(call -> cql.settings.modelCallAudit())
        .map(call -> new ModelCall(sessionId, call.turn(), call.model(), call.context(), call.usage(), now));
    StepResult result = new StepResult(session.withLastSeq(lastSeq), run, plan.removes(), plan.results(appended),
        calls.registered(), calls.resolutions(), summary, checkpoints, audit);
    StepOutcome outcome = new StepOutcome.Committed(result);
    boolean writesSomething = !header.exists() || step.session().isPresent() || run.isPresent()
        || plan.changesLog() || !step.checkpoints().isEmpty() || summary.isPresent() || calls.changes()
        || audit.isPresent();
    if (!writesSomething) {
      return new Attempt(null, null, outcome, null, false, Set.of(), calls.before(), null);
    }
    UUID newHead = Uuids.timeBased();
    BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.LOGGED);
    long bytes = ROW_OVERHEAD + utf8(session.settings().text()) + metadataLength(session);
    batch.addStatement(bindHeader(newHead, lastSeq, cutSeq, session, header));
    if (plan.cuts()) {
      // Row by row, and never a row this batch writes again: every statement of a conditional batch gets one
      // timestamp, at which a deletion shadows an insert, so a range deletion would hide the step's new events.
      Set<String> rewrittenIds = new HashSet<>();
      appended.forEach(event -> rewrittenIds.add(event.id()));
      for (Event removed : removedEvents) {
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
      bytes += addSummary(batch, summary.get());
    }
    for (Event event : appended) {
      bytes += addEvent(batch, event, assumeNewIds);
    }
    if (run.isPresent()) {
      bytes += addRun(batch, run.get(), newHead);
    }
    for (ToolCall call : calls.changed()) {
      bytes += addCall(batch, sessionId, call);
    }
    if (audit.isPresent()) {
      bytes += addModelCall(batch, audit.get());
    }
    List<String> deleted = step.checkpoints().stream().filter(change -> change.data() == null)
        .map(CheckpointChange::name).toList();
    Set<String> removedCheckpoints = deleted.isEmpty() ? Set.of()
        : reader.checkpointNames(sessionId, deleted, serial);
    for (CheckpointChange change : step.checkpoints()) {
      if (change.data() == null) {
        batch.addStatement(cql.deleteCheckpoint.bind(ns, sessionId, change.name()));
      } else {
        bytes += addCheckpoint(batch, puts.get(change.name()));
      }
    }
    requireFits(sessionId, bytes);
    // what spans partitions goes first, idempotently: the listing index, deadline hints, then the name claim (the
    // last check)
    if (!header.exists()) {
      index.add(sessionId);
    }
    DeadlineSweeper.hint(cql, sessionId, calls.newDeadlines());
    if (session.name() != null && (stored == null || !session.name().equals(stored.name()))) {
      names.claim(session.name(), sessionId);
    }
    String releasedName = stored != null && stored.name() != null && !stored.name().equals(session.name())
        ? stored.name() : null;
    return new Attempt(batch.build(), newHead, outcome, releasedName, plan.changesLog() || calls.changes(),
        removedCheckpoints, calls.before(), new Header(newHead, lastSeq, session.withLastSeq(lastSeq),
            header.fenceToken(), header.fenceOwner(), cutSeq));
  }

  /** The tool calls {@code step} names and those of {@code lookAt}, as stored. */
  private Map<String, ToolCall> readCalls(Step step, Set<String> lookAt, String sessionId, boolean serial) {
    Set<String> ids = new HashSet<>(lookAt);
    step.toolCalls().forEach(call -> ids.add(call.id()));
    step.resolutions().forEach(resolution -> ids.add(resolution.toolCallId()));
    step.deadlines().forEach(change -> ids.add(change.toolCallId()));
    return ids.isEmpty() ? Map.of() : reader.toolCalls(sessionId, ids, serial);
  }

  /**
   * A rejected step: nothing of it is written, but the calls it found due are stored expired (with the head only),
   * so that the expiry it reported is the one every later read sees.
   */
  private Attempt rejected(String sessionId, Header header, StepCalls calls, StepOutcome outcome) {
    if (calls.expired().isEmpty()) {
      return new Attempt(null, null, outcome, null, false, Set.of(), calls.before(), null);
    }
    UUID newHead = Uuids.timeBased();
    BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.LOGGED)
        .addStatement(bindHeader(newHead, header.lastSeq(), header.cutSeq(), header.session(), header));
    for (ToolCall call : calls.expired()) {
      batch.addStatement(bindCall(sessionId, call));
    }
    return new Attempt(batch.build(), newHead, outcome, null, true, Set.of(), calls.before(), null);
  }

  private BoundStatement bindHeader(UUID newHead, long lastSeq, long cutSeq, Session session, Header header) {
    return cql.writeHeader.bind(newHead, lastSeq, cutSeq, session.name(), session.tenant(), session.agentId(),
        session.status().value(), session.settings().text(), session.metadata(),
        session.forkedFrom() == null ? null : session.forkedFrom().sessionId(),
        session.forkedFrom() == null ? null : session.forkedFrom().seq(),
        Micros.of(session.createdAt()), Micros.of(session.updatedAt()),
        session.expiresAt() == null ? null : Micros.of(session.expiresAt()), ns, session.id(), header.head());
  }

  /**
   * Adds the rows of {@code event} (its row and its id row, written {@code IF NOT EXISTS} when {@code idIsNew} is
   * assumed) to {@code batch}; returns their size.
   */
  private long addEvent(BatchStatementBuilder batch, Event event, boolean idIsNew) {
    String sessionId = event.sessionId();
    Set<String> searchTerms = SearchEntries.of(event.payload());
    batch.addStatement(cql.insertEvent.bind(ns, sessionId, Rows.eventKey(event.seq()), event.seq(), event.id(),
        event.type(), event.runId(), event.agentId(), event.parentId(), event.payload().text(),
        Micros.of(event.timestamp()), searchTerms));
    batch.addStatement((idIsNew ? cql.insertNewId : cql.insertId).bind(ns, sessionId, event.id(), event.seq()));
    long termBytes = 0;
    for (String term : searchTerms) {
      termBytes += utf8(term) + SET_ELEMENT_OVERHEAD;
    }
    return 2 * ROW_OVERHEAD + 2L * utf8(event.id()) + utf8(event.type()) + utf8(event.payload().text())
        + utf8(event.runId()) + utf8(event.agentId()) + utf8(event.parentId()) + termBytes;
  }

  private long addSummary(BatchStatementBuilder batch, Summary summary) {
    batch.addStatement(cql.insertSummary.bind(ns, summary.sessionId(), Rows.eventKey(summary.toSeq()),
        summary.toSeq(), summary.fromSeq(), summary.content().text(), summary.version(),
        Micros.of(summary.createdAt())));
    return ROW_OVERHEAD + utf8(summary.content().text());
  }

  /** Adds {@code run}'s row, saved by the write that sets {@code head}. */
  private long addRun(BatchStatementBuilder batch, Run run, UUID head) {
    batch.addStatement(cql.insertRun.bind(ns, run.sessionId(), run.id(), run.status().name(), run.usage().text(),
        run.error() == null ? null : run.error().text(), Micros.of(run.createdAt()), Micros.of(run.updatedAt()),
        head));
    return ROW_OVERHEAD + utf8(run.usage().text()) + (run.error() == null ? 0 : utf8(run.error().text()));
  }

  private long addCall(BatchStatementBuilder batch, String sessionId, ToolCall call) {
    batch.addStatement(bindCall(sessionId, call));
    return ROW_OVERHEAD + utf8(call.toolName()) + utf8(call.arguments().text())
        + (call.result() == null ? 0 : utf8(call.result().text()));
  }

  private long addModelCall(BatchStatementBuilder batch, ModelCall row) {
    batch.addStatement(cql.insertModelCall.bind(ns, row.sessionId(), Rows.eventKey(row.turn()), row.turn(),
        row.model(), row.context().text(), row.usage().text(), Micros.of(row.recordedAt())));
    return ROW_OVERHEAD + utf8(row.model()) + utf8(row.context().text()) + utf8(row.usage().text());
  }

  private long addCheckpoint(BatchStatementBuilder batch, Checkpoint checkpoint) {
    batch.addStatement(cql.insertCheckpoint.bind(ns, checkpoint.key().sessionId(), checkpoint.key().name(),
        ByteBuffer.wrap(checkpoint.data()), Micros.of(checkpoint.updatedAt())));
    return ROW_OVERHEAD + utf8(checkpoint.key().name()) + checkpoint.data().length;
  }

  /** The statement that stores {@code call} as it is, in the session's partition. */
  BoundStatement bindCall(String sessionId, ToolCall call) {
    return cql.insertToolCall.bind(ns, sessionId, call.id(), call.runId(), call.requestEventId(), call.toolName(),
        call.arguments().text(), call.status().name(), call.result() == null ? null : call.result().text(),
        call.deadline() == null ? null : Micros.of(call.deadline()), Micros.of(call.createdAt()),
        Micros.of(call.updatedAt()));
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
  static long utf8(String text) {
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
   * One planned write: the batch (null when the step writes nothing), the head it sets, its outcome (null for a
   * {@link PartitionChange}, which reports a count instead), the name it
   * gives up, whether it wakes waiters (it changes a log or a tool call), which of its checkpoint deletions find a
   * checkpoint, the calls it names as they stood before it (a due call expired), and the partition's header once the
   * batch applied (null when the next write must read it).
   */
  record Attempt(BatchStatement batch, UUID newHead, StepOutcome outcome, String releasedName, boolean wakes,
      Set<String> removedCheckpoints, Map<String, ToolCall> callsBefore, Header after) {
  }
}
