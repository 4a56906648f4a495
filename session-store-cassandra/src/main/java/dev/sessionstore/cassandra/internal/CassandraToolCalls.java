package dev.sessionstore.cassandra.internal;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.sessionstore.Json;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.Resolution;
import dev.sessionstore.Step;
import dev.sessionstore.StepOutcome;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.ToolCalls;
import dev.sessionstore.spi.Arguments;
import dev.sessionstore.spi.Failures;
import dev.sessionstore.spi.IdOrder;
import dev.sessionstore.spi.Timeouts;
import dev.sessionstore.spi.ToolCallTransitions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Tool calls on Cassandra: rows of their session's partition (kind {@code t}, keyed by call id), written only by
 * steps ({@link StepWriter}), so a registration with its tool_use event and a resolution with its tool_result event
 * are each one conditional batch on the partition. The resolution's compare-and-set from pending is that batch's
 * condition on the head: the attempt read the call pending, and the batch applies only if no write reached the
 * partition since, so of any number of resolvers (in any process) exactly one applies; the others re-read the call
 * resolved and get {@link Resolution.Stale} or {@link Resolution.Replayed}.
 *
 * <p>A call is due once the store clock reaches its deadline. A read that meets a due call expires it with the same
 * compare-and-set before returning it (an otherwise empty step looking at the call), so what one read saw expired,
 * expiry time included, every later read sees; a {@link DeadlineSweeper} does the same without a reader.
 *
 * <p>{@link #await} re-reads the call whenever a write of this instance wakes the store's waiters, at least every
 * poll interval for other processes' writes, and every {@link #CLOCK_RECHECK} while the call has a deadline, so a
 * store clock moved by hand ends the wait; while nodes or a quorum cannot answer it reads again with a backoff until
 * its timeout ({@link SessionWaiters}).
 */
final class CassandraToolCalls implements ToolCalls {

  /** How often a waiter on a call with a deadline re-reads it for the store clock. */
  private static final long CLOCK_RECHECK = 20_000_000;

  private static final Comparator<ToolCall> CREATION_ORDER =
      Comparator.comparing(ToolCall::createdAt).thenComparing(ToolCall::id, IdOrder.BY_CODE_POINT);

  private final Cql cql;
  private final PartitionReader reader;
  private final StepWriter writer;
  private final SessionWaiters waiters;
  private final String ns;
  private final long pollNanos;

  CassandraToolCalls(Cql cql, PartitionReader reader, StepWriter writer, SessionWaiters waiters) {
    this.cql = cql;
    this.reader = reader;
    this.writer = writer;
    this.waiters = waiters;
    this.ns = cql.settings.namespace();
    this.pollNanos = cql.settings.pollInterval().toNanos();
  }

  @Override
  public ToolCall save(ToolCallWrite call) {
    return writer.commit(Step.builder(call.sessionId()).registerToolCall(call).build(), false).toolCalls().get(0);
  }

  @Override
  public Optional<ToolCall> find(String sessionId, String toolCallId) {
    Row row = Reads.run(() -> cql.read(cql.toolCall.bind(ns, sessionId, toolCallId)).one());
    if (row == null) {
      return Optional.empty();
    }
    ToolCall call = Rows.toolCall(sessionId, row);
    if (!ToolCallTransitions.isDue(call, now())) {
      return Optional.of(call);
    }
    return Optional.ofNullable(writer.expire(sessionId, toolCallId));
  }

  @Override
  public List<ToolCall> pending(String sessionId) {
    List<ToolCall> calls = Reads.run(() -> reader.toolCalls(sessionId, false));
    Instant now = now();
    List<ToolCall> pending = new ArrayList<>();
    for (ToolCall call : calls) {
      if (ToolCallTransitions.isDue(call, now)) {
        call = writer.expire(sessionId, call.id());
      }
      if (call != null && call.status() == ToolCallStatus.PENDING) {
        pending.add(call);
      }
    }
    pending.sort(CREATION_ORDER);
    return List.copyOf(pending);
  }

  @Override
  public Resolution resolve(String sessionId, String toolCallId, ToolCallStatus status, Json result) {
    StepOutcome outcome;
    try {
      outcome = writer.write(Step.builder(sessionId).resolve(toolCallId, status, result).build(), true, Set.of())
          .outcome();
    } catch (NotFoundException unknownSession) {
      return new Resolution.Stale(toolCallId, Optional.empty());
    }
    return outcome.isCommitted() ? outcome.orElseThrow().resolutions().get(0) : outcome.stale().get(0);
  }

  @Override
  public Optional<ToolCall> await(String sessionId, String toolCallId, Duration timeout) {
    long deadline = System.nanoTime() + Timeouts.nanos(timeout);
    SessionWaiters.Wait wait = waiters.startWait(sessionId);
    while (true) {
      long seen = waiters.version();
      Optional<ToolCall> call = wait.read(() -> find(sessionId, toolCallId)).flatMap(found -> found);
      if (call.isPresent() && call.get().status().isTerminal()) {
        wait.found();
        return call;
      }
      long left = deadline - System.nanoTime();
      long poll = call.isPresent() && call.get().deadline() != null ? Math.min(pollNanos, CLOCK_RECHECK) : pollNanos;
      if (left <= 0 || Thread.currentThread().isInterrupted()
          || !wait.sleep(seen, Math.min(left, wait.pauseNanos(poll)))) {
        return Optional.empty();
      }
    }
  }

  @Override
  public boolean expireAt(String sessionId, String toolCallId, Instant deadline) {
    return changeDeadline(sessionId, toolCallId, deadline);
  }

  @Override
  public boolean expireAfter(String sessionId, String toolCallId, Duration timeout) {
    return expireAt(sessionId, toolCallId, Arguments.requireInstant("deadline",
        Timeouts.deadlineAfter(cql.settings.clock().instant(), timeout)));
  }

  @Override
  public boolean cancelDeadline(String sessionId, String toolCallId) {
    Optional<ToolCall> call = find(sessionId, toolCallId);
    if (call.isEmpty() || call.get().deadline() == null) {
      return false;
    }
    return changeDeadline(sessionId, toolCallId, null);
  }

  /**
   * Sets ({@code deadline} non-null) or removes the deadline of a pending call.
   *
   * @return whether the call was pending (and so changed)
   * @throws NotFoundException if the session has no such call
   */
  private boolean changeDeadline(String sessionId, String toolCallId, Instant deadline) {
    Step.Builder step = Step.builder(sessionId);
    if (deadline == null) {
      step.cancelDeadline(toolCallId);
    } else {
      step.expireAt(toolCallId, deadline);
    }
    ToolCall before;
    try {
      before = writer.write(step.build(), true, Set.of()).callsBefore().get(toolCallId);
    } catch (NotFoundException unknownSession) {
      throw Failures.toolCallNotFound(sessionId, toolCallId);
    }
    return before.status() == ToolCallStatus.PENDING;
  }

  private Instant now() {
    return cql.settings.clock().instant();
  }
}
