package dev.sessionstore.jdbc.internal;

import dev.sessionstore.Archives;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.ImportOutcome;
import dev.sessionstore.ModelCall;
import dev.sessionstore.Run;
import dev.sessionstore.Session;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.Summary;
import dev.sessionstore.ToolCall;
import dev.sessionstore.spi.ArchiveRules;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Export and import of whole sessions. Each aggregate reads and writes its own tables; this class puts their
 * connection-level parts together in one unit of work.
 *
 * <p><b>Export</b>: first the session's due tool calls are expired, as any read of them does, so that the export
 * shows what later reads show; then one read-only transaction over one snapshot ({@link Database#snapshot}) reads
 * the session, its events through the event log's read path, its runs, tool calls, summaries, checkpoints and audit
 * rows, so no write that commits meanwhile is half in it.
 *
 * <p><b>Import</b>: one transaction inserts the session's row (with its fork origin and times) unless the id is
 * taken, then the log in batches through {@link EventAppender#storeLog}, then every other row as exported; any
 * failure rolls all of it back. A taken name is a {@link ImportOutcome#CONFLICT} (rolled back); a taken id is
 * settled after the transaction by comparing the stored session's export with the archive
 * ({@link ArchiveRules#outcomeOver}). Instants are checked
 * against what the database stores before anything is written. Lost while it committed, the import runs again and
 * finds the session stored ({@link ImportOutcome#UNCHANGED}).
 */
final class JdbcArchives implements Archives {

  /** The order runs are inserted in: of runs updated at the same instant, the one written last is active. */
  private static final Comparator<Run> UPDATE_ORDER = Comparator.comparing(Run::updatedAt);

  private final Database database;
  private final Tables tables;
  private final Clock clock;
  private final Dialect dialect;
  private final Sql sql;
  private final EventAppender appender;
  private final AppendNotifier notifier;
  private final JdbcSessions sessions;
  private final JdbcEventLog events;
  private final JdbcRuns runs;
  private final JdbcToolCalls toolCalls;
  private final JdbcSummaries summaries;
  private final JdbcCheckpoints checkpoints;
  private final JdbcModelCallAudit modelCalls;
  private final String insertSession;
  /** The seq through which retention cut a session's log (0: never), exported as the archive's cut point. */
  private final String selectCutSeq;

  JdbcArchives(Database database, Tables tables, Clock clock, EventAppender appender, AppendNotifier notifier,
      JdbcSessions sessions, JdbcEventLog events, JdbcRuns runs, JdbcToolCalls toolCalls, JdbcSummaries summaries,
      JdbcCheckpoints checkpoints, JdbcModelCallAudit modelCalls) {
    this.database = database;
    this.tables = tables;
    this.clock = clock;
    this.dialect = database.dialect();
    this.sql = new Sql(dialect);
    this.appender = appender;
    this.notifier = notifier;
    this.sessions = sessions;
    this.events = events;
    this.runs = runs;
    this.toolCalls = toolCalls;
    this.summaries = summaries;
    this.checkpoints = checkpoints;
    this.modelCalls = modelCalls;
    this.insertSession = "INSERT INTO " + tables.sessions()
        + " (id, name, tenant, agent_id, status, settings, metadata, fork_parent_id, fork_seq, last_seq, cut_seq,"
        + " created_at, updated_at, expires_at) VALUES (?, ?, ?, ?, ?, " + dialect.jsonParameter() + ", "
        + dialect.metadataParameter() + ", ?, ?, ?, ?, ?, ?, ?)" + dialect.onConflictIgnore("id");
    this.selectCutSeq = "SELECT cut_seq FROM " + tables.sessions() + " WHERE id = ?";
  }

  @Override
  public Optional<SessionArchive> export(String sessionId) {
    Instant now = clock.instant();
    database.autoCommit("expire the due tool calls of session " + sessionId,
        connection -> {
          toolCalls.expireDue(connection, sessionId, now);
          return null;
        });
    return database.snapshot("export session " + sessionId, connection -> read(connection, sessionId, now));
  }

  private Optional<SessionArchive> read(Connection connection, String sessionId, Instant now) throws SQLException {
    Optional<Session> session = sessions.find(connection, sessionId);
    if (session.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new SessionArchive(session.get(), events.read(connection, sessionId, EventQuery.all()).items(),
        runs.list(connection, sessionId), toolCalls.all(connection, sessionId, now),
        summaries.list(connection, sessionId), checkpoints.list(connection, sessionId),
        modelCalls.enabled() ? modelCalls.list(connection, sessionId) : List.of(),
        sql.first(connection, selectCutSeq, row -> row.getLong(1), sessionId).orElse(0L)));
  }

  @Override
  public ImportOutcome importSession(SessionArchive archive) {
    checkStorable(archive);
    SessionArchive kept = modelCalls.enabled() ? archive : archive.withModelCalls(List.of());
    String sessionId = archive.sessionId();
    while (true) {
      Optional<ImportOutcome> written = database.transaction("import session " + sessionId,
          connection -> insert(connection, kept));
      if (written.isPresent()) {
        if (written.get() == ImportOutcome.IMPORTED) {
          notifier.appended(sessionId);
        }
        return written.get();
      }
      Optional<SessionArchive> stored = export(sessionId);
      if (stored.isPresent()) {
        return ArchiveRules.outcomeOver(stored.get(), kept);
      }
      // Deleted since the insert found it: import again.
    }
  }

  /**
   * Inserts the whole archive in the caller's transaction; empty, with nothing written, when a session with its id
   * exists.
   */
  private Optional<ImportOutcome> insert(Connection connection, SessionArchive archive) throws SQLException {
    Session session = archive.session();
    try {
      if (sql.update(connection, insertSession, session.id(), session.name(), session.tenant(), session.agentId(),
          session.status().value(), session.settings(), MetadataJson.write(session.metadata()),
          session.forkedFrom() == null ? null : session.forkedFrom().sessionId(),
          session.forkedFrom() == null ? null : session.forkedFrom().seq(), archive.cutSeq(), archive.cutSeq(),
          session.createdAt(), session.updatedAt(), session.expiresAt()) == 0) {
        return Optional.empty();
      }
    } catch (SQLException e) {
      if (dialect.classify(e).violates(dialect.uniqueKeyName(tables, UniqueKey.SESSION_NAME))) {
        connection.rollback();
        return Optional.of(ImportOutcome.CONFLICT);
      }
      throw e;
    }
    appender.storeLog(connection, session.id(), archive.cutSeq(), archive.events(), clock.instant());
    runs.insertAll(connection, archive.runs().stream().sorted(UPDATE_ORDER).toList());
    toolCalls.insertAll(connection, archive.toolCalls());
    summaries.insertAll(connection, archive.summaries());
    checkpoints.insertAll(connection, archive.checkpoints());
    modelCalls.insertAll(connection, archive.modelCalls());
    return Optional.of(ImportOutcome.IMPORTED);
  }

  /**
   * Fails, before anything is written, unless the database stores every instant of the archive exactly.
   *
   * @throws dev.sessionstore.InvalidArgumentException naming the first instant it does not
   */
  private void checkStorable(SessionArchive archive) {
    dialect.requireStorable("archive.session.createdAt", archive.session().createdAt());
    dialect.requireStorable("archive.session.updatedAt", archive.session().updatedAt());
    if (archive.session().expiresAt() != null) {
      dialect.requireStorable("archive.session.expiresAt", archive.session().expiresAt());
    }
    for (int i = 0; i < archive.events().size(); i++) {
      Event event = archive.events().get(i);
      dialect.requireStorable("archive.events[" + i + "].timestamp", event.timestamp());
    }
    for (int i = 0; i < archive.runs().size(); i++) {
      Run run = archive.runs().get(i);
      dialect.requireStorable("archive.runs[" + i + "].createdAt", run.createdAt());
      dialect.requireStorable("archive.runs[" + i + "].updatedAt", run.updatedAt());
    }
    for (int i = 0; i < archive.toolCalls().size(); i++) {
      ToolCall call = archive.toolCalls().get(i);
      if (call.deadline() != null) {
        dialect.requireStorable("archive.toolCalls[" + i + "].deadline", call.deadline());
      }
      dialect.requireStorable("archive.toolCalls[" + i + "].createdAt", call.createdAt());
      dialect.requireStorable("archive.toolCalls[" + i + "].updatedAt", call.updatedAt());
    }
    for (int i = 0; i < archive.summaries().size(); i++) {
      Summary summary = archive.summaries().get(i);
      dialect.requireStorable("archive.summaries[" + i + "].createdAt", summary.createdAt());
    }
    for (int i = 0; i < archive.checkpoints().size(); i++) {
      Checkpoint checkpoint = archive.checkpoints().get(i);
      dialect.requireStorable("archive.checkpoints[" + i + "].updatedAt", checkpoint.updatedAt());
    }
    for (int i = 0; i < archive.modelCalls().size(); i++) {
      ModelCall row = archive.modelCalls().get(i);
      dialect.requireStorable("archive.modelCalls[" + i + "].recordedAt", row.recordedAt());
    }
  }

  @Override
  public List<Checkpoint> globalCheckpoints() {
    return checkpoints.globals();
  }

  @Override
  public ImportOutcome importGlobalCheckpoint(Checkpoint checkpoint) {
    dialect.requireStorable("checkpoint.updatedAt", checkpoint.updatedAt());
    return checkpoints.importGlobal(checkpoint);
  }
}
