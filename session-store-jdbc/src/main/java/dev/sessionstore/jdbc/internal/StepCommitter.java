package dev.sessionstore.jdbc.internal;

import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointChange;
import dev.sessionstore.DeadlineChange;
import dev.sessionstore.Event;
import dev.sessionstore.ModelCall;
import dev.sessionstore.Resolution;
import dev.sessionstore.Run;
import dev.sessionstore.Session;
import dev.sessionstore.Step;
import dev.sessionstore.StepOutcome;
import dev.sessionstore.StepResult;
import dev.sessionstore.Summary;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallResolution;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.spi.Failures;
import dev.sessionstore.spi.StepLog;
import dev.sessionstore.spi.ToolCallTransitions;
import dev.sessionstore.spi.Upserts;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Commits a {@link Step} in one transaction (guarantee 16 of docs/guarantees.md).
 *
 * <p>The transaction first locks the session's row ({@link Dialect#lockForUpdate()}, or creates the row, which
 * locks it just the same), so steps and appends of one session serialize and every read after it sees the
 * previous holder's writes. A step carrying a fencing token then checks it against the session's claim
 * ({@link WriterFences#check}), in the same transaction. It then reads what the step needs (the stored events among the step's ids, the tail a
 * cut would remove when it may be the step's own retry, each tool call it names, locked), lets {@link StepLog}
 * decide the log's changes and {@link ToolCallTransitions} the calls', and writes. A stale resolution rolls back
 * everything written so far (the session and run upserts, an implicit session) and is returned as a value; every
 * other failure is an exception, which rolls back the same way. A tool call found absent that another transaction
 * registered meanwhile (a standalone save, which does not lock the session's row) makes the step start over in the
 * same transaction, after a rollback.
 *
 * <p>Once committed, the session's waiters (waiting reads, tool-call waits) are woken in this instance and in
 * others through the notification channel.
 */
final class StepCommitter {

  private final Database database;
  private final Clock clock;
  private final Tables tables;
  private final ImplicitSession implicitSession;
  private final EventAppender appender;
  private final JdbcSessions sessions;
  private final JdbcRuns runs;
  private final JdbcToolCalls toolCalls;
  private final JdbcSummaries summaries;
  private final JdbcCheckpoints checkpoints;
  private final JdbcModelCallAudit modelCalls;
  private final AppendNotifier notifier;
  private final Sql sql;
  private final RowMapper<Session> sessionRows;

  StepCommitter(Database database, Clock clock, Tables tables, ImplicitSession implicitSession,
      EventAppender appender, JdbcSessions sessions, JdbcRuns runs, JdbcToolCalls toolCalls,
      JdbcSummaries summaries, JdbcCheckpoints checkpoints, JdbcModelCallAudit modelCalls, AppendNotifier notifier) {
    this.database = database;
    this.clock = clock;
    this.tables = tables;
    this.implicitSession = implicitSession;
    this.appender = appender;
    this.sessions = sessions;
    this.runs = runs;
    this.toolCalls = toolCalls;
    this.summaries = summaries;
    this.checkpoints = checkpoints;
    this.modelCalls = modelCalls;
    this.notifier = notifier;
    this.sql = new Sql(database.dialect());
    this.sessionRows = SessionRows.mapper(database.dialect());
  }

  StepOutcome commit(Step step) {
    checkStorable(step);
    StepLog stepLog = StepLog.of(step);
    StepOutcome outcome = database.transaction("commit a step of session " + step.sessionId(), connection -> {
      while (true) {
        Optional<StepOutcome> attempt = attempt(connection, step, stepLog);
        if (attempt.isPresent()) {
          return attempt.get();
        }
        connection.rollback();
      }
    });
    if (outcome.isCommitted() && !step.isEmpty()) {
      notifier.appended(step.sessionId());
    }
    return outcome;
  }

  /** Checks, before any write, that the database can store the instants the step brings. */
  private void checkStorable(Step step) {
    appender.checkStorable(step.events());
    step.toolCalls().forEach(toolCalls::checkStorable);
    for (DeadlineChange change : step.deadlines()) {
      change.newDeadline().ifPresent(deadline -> database.dialect().requireStorable("deadline.deadline", deadline));
    }
  }

  /**
   * One attempt at the step; empty when it must start over (after a rollback) because a tool call it found absent
   * was registered meanwhile.
   */
  private Optional<StepOutcome> attempt(Connection connection, Step step, StepLog stepLog) throws SQLException {
    String sessionId = step.sessionId();
    Instant now = clock.instant();
    // A step that cuts locks the session with everything sharing its events, in id order, as a truncation does.
    OptionalLong locked = step.truncateFrom().isPresent() ? appender.lockLastSeqForCut(connection, sessionId, 1)
        : appender.lockLastSeq(connection, sessionId);
    sessions.fences().check(connection, sessionId, step.fence());
    if (locked.isEmpty() && step.truncateFrom().isPresent()) {
      throw Failures.sessionNotFound(sessionId);
    }
    long lastSeq;
    if (step.session().isPresent()) {
      lastSeq = sessions.save(connection, step.session().get(), now).lastSeq();
    } else if (locked.isPresent()) {
      lastSeq = locked.getAsLong();
    } else if (implicitSession.create(connection, sessionId, now)) {
      lastSeq = 0;
    } else {
      return Optional.empty();
    }

    Map<String, Event> stored = lastSeq == 0 ? Map.of()
        : appender.storedWithIds(connection, sessionId, stepLog.ids());
    List<Event> tail = mayBeRetriedTail(step, lastSeq) ? appender.storedFrom(connection, sessionId,
        step.truncateFrom().getAsLong()) : List.of();
    StepLog.Plan plan = stepLog.plan(lastSeq, stored, cutSeq -> tail);
    Run run = step.run().isPresent() ? runs.save(connection, step.run().get(), now) : null;
    requireRequestEvents(connection, sessionId, stepLog, plan);

    StepCalls calls = new StepCalls(connection, sessionId, now);
    List<ToolCall> registered = new ArrayList<>();
    for (ToolCallWrite write : step.toolCalls()) {
      registered.add(calls.put(Upserts.toolCall(write, calls.get(write.id()), now)));
    }
    List<Resolution> resolutions = new ArrayList<>();
    List<Resolution.Stale> stale = new ArrayList<>();
    for (ToolCallResolution asked : step.resolutions()) {
      ToolCall call = calls.get(asked.toolCallId());
      Optional<Resolution> settled =
          ToolCallTransitions.settled(asked.toolCallId(), call, asked.status(), asked.result());
      if (settled.isEmpty()) {
        resolutions.add(new Resolution.Resolved(
            calls.put(ToolCallTransitions.resolved(call, asked.status(), asked.result(), now))));
      } else if (settled.get() instanceof Resolution.Stale staleOne) {
        stale.add(staleOne);
      } else {
        resolutions.add(settled.get());
      }
    }
    if (!stale.isEmpty()) {
      connection.rollback();
      return Optional.of(new StepOutcome.Rejected(stale));
    }
    for (DeadlineChange change : step.deadlines()) {
      ToolCall call = calls.get(change.toolCallId());
      if (call == null) {
        throw Failures.toolCallNotFound(sessionId, change.toolCallId());
      }
      if (call.status() == ToolCallStatus.PENDING) {
        calls.put(ToolCallTransitions.withDeadline(call, change.deadline(), now));
      }
    }
    long lastSeqAfter = (plan.cuts() ? plan.cutFrom() - 1 : lastSeq) + plan.fresh().size();
    step.summary().ifPresent(summary -> {
      if (summary.toSeq() > lastSeqAfter) {
        throw Failures.summaryPastLastSeq(sessionId, summary.toSeq(), lastSeqAfter);
      }
    });

    if (plan.cuts()) {
      appender.cut(connection, sessionId, lastSeq, plan.cutFrom());
    }
    List<Event> appended = appender.appendFresh(connection, sessionId,
        plan.cuts() ? plan.cutFrom() - 1 : lastSeq, plan.fresh(), now);
    if (!calls.store()) {
      return Optional.empty();
    }
    if (plan.cuts()) {
      appender.dropCutRequestEvents(connection, sessionId);
    }
    Summary summary = step.summary().isPresent()
        ? summaries.store(connection, sessionId, step.summary().get(), now) : null;
    List<Checkpoint> put = new ArrayList<>();
    for (CheckpointChange change : step.checkpoints()) {
      if (change.data() == null) {
        checkpoints.delete(connection, sessionId, change.name());
      } else {
        put.add(checkpoints.put(connection, sessionId, change.name(), change.data(), now));
      }
    }
    Optional<ModelCall> modelCall = step.modelCall().isPresent()
        ? modelCalls.store(connection, sessionId, step.modelCall().get(), now) : Optional.empty();
    Session session = sql.first(connection, "SELECT " + SessionRows.COLUMNS + " FROM " + tables.sessions()
        + " WHERE id = ?", sessionRows, sessionId).orElseThrow();
    List<ToolCall> registeredNow = registered.stream().map(call -> calls.latest(call.id())).toList();
    return Optional.of(new StepOutcome.Committed(new StepResult(session, Optional.ofNullable(run), plan.removes(),
        plan.results(appended), registeredNow, resolutions, Optional.ofNullable(summary), put, modelCall)));
  }

  /**
   * Whether the step's cut may be the step's own retry, so that {@link StepLog#plan} needs the tail it would
   * remove: it removes events, and no more than the step appends.
   */
  private static boolean mayBeRetriedTail(Step step, long lastSeq) {
    if (step.truncateFrom().isEmpty()) {
      return false;
    }
    long removes = lastSeq - step.truncateFrom().getAsLong() + 1;
    return removes > 0 && removes <= step.events().size();
  }

  /** Fails unless every requesting event the step's registrations name outside the step is in the log after its cut. */
  private void requireRequestEvents(Connection connection, String sessionId, StepLog stepLog, StepLog.Plan plan)
      throws SQLException {
    Set<String> foreign = stepLog.foreignRequestEventIds();
    if (foreign.isEmpty()) {
      return;
    }
    Map<String, Event> found = appender.storedWithIds(connection, sessionId, foreign);
    for (String eventId : foreign) {
      Event event = found.get(eventId);
      if (event == null || !plan.keeps(event)) {
        throw Failures.eventNotFound(sessionId, eventId);
      }
    }
  }

  /**
   * The tool calls one attempt touches: each read once (locked, and as a read at the step's instant sees it), then
   * changed in memory by the step's members in order, and stored together at the end.
   */
  private final class StepCalls {

    private final Connection connection;
    private final String sessionId;
    private final Instant now;
    private final Map<String, ToolCall> current = new LinkedHashMap<>();
    private final Set<String> existed = new HashSet<>();
    private final Map<String, ToolCall> changed = new HashMap<>();

    StepCalls(Connection connection, String sessionId, Instant now) {
      this.connection = connection;
      this.sessionId = sessionId;
      this.now = now;
    }

    /** The call as the step has made it so far, else as stored, else {@code null}. */
    ToolCall get(String toolCallId) throws SQLException {
      if (!current.containsKey(toolCallId)) {
        Optional<ToolCall> stored = toolCalls.current(connection, sessionId, toolCallId, now);
        stored.ifPresent(call -> existed.add(toolCallId));
        current.put(toolCallId, stored.orElse(null));
      }
      return current.get(toolCallId);
    }

    /** The step's state of a call it has read or changed. */
    ToolCall latest(String toolCallId) {
      return current.get(toolCallId);
    }

    /** Records {@code call} as the step's new state of that call; returns it. */
    ToolCall put(ToolCall call) {
      current.put(call.id(), call);
      changed.put(call.id(), call);
      return call;
    }

    /** Stores every changed call; {@code false} if one found absent was registered by another transaction. */
    boolean store() throws SQLException {
      for (ToolCall call : changed.values()) {
        if (!toolCalls.store(connection, call, existed.contains(call.id()), now)) {
          return false;
        }
      }
      return true;
    }
  }
}
