package dev.sessionstore.jdbc.internal;

import dev.sessionstore.ConflictException;
import dev.sessionstore.Session;
import dev.sessionstore.SessionPage;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Sessions;
import dev.sessionstore.WriterClaim;
import dev.sessionstore.spi.Failures;
import dev.sessionstore.spi.ResumeRule;
import dev.sessionstore.spi.SessionCursor;
import dev.sessionstore.spi.Upserts;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Sessions on the sessions table. A save reads the row under lock, merges with {@link Upserts#session} and writes it
 * back; a fork shares the parent's events through segments and copies the rest server-side, by the rule of
 * {@link dev.sessionstore.spi.ForkRule}, in time independent of the log's length; deletion keeps forks whole, then
 * cascades through the foreign keys and keeps the writer claims ({@link WriterFences}).
 */
final class JdbcSessions implements Sessions {

  /** A session as stored, with the last seq of its log. */
  record Saved(Session session, long lastSeq) {
  }

  private final Database database;
  private final Tables tables;
  private final Clock clock;
  private final Dialect dialect;
  private final Sql sql;
  private final RowMapper<Session> sessions;
  private final String selectForUpdate;
  private final String insert;
  private final String update;
  private final String lockForFork;
  private final WriteChain fork;
  private final Dependents dependents;
  private final WriterFences fences;

  JdbcSessions(Database database, Tables tables, Clock clock) {
    this.database = database;
    this.tables = tables;
    this.clock = clock;
    this.dialect = database.dialect();
    this.sql = new Sql(dialect);
    this.sessions = SessionRows.mapper(dialect);
    this.selectForUpdate = "SELECT " + SessionRows.COLUMNS + " FROM " + tables.sessions()
        + " WHERE id = ?" + dialect.lockForUpdate();
    String json = dialect.jsonParameter();
    String metadata = dialect.metadataParameter();
    this.insert = "INSERT INTO " + tables.sessions()
        + " (id, name, tenant, agent_id, status, settings, metadata, created_at, updated_at, expires_at)"
        + " VALUES (?, ?, ?, ?, ?, " + json + ", " + metadata + ", ?, ?, ?)" + dialect.onConflictIgnore("id");
    this.update = "UPDATE " + tables.sessions() + " SET name = ?, tenant = ?, agent_id = ?, status = ?, settings = "
        + json + ", metadata = " + metadata + ", updated_at = ?, expires_at = ? WHERE id = ?";
    // Forking locks the parent's row and the sources of its segments against truncation and deletion (a share lock,
    // which waits for any in progress), so that the rows the fork will share stay as they are until it commits and
    // a later cut or deletion finds the fork among their dependents. Then one chained write: the new session, then
    // what it takes from the parent, each reading the parent's rows only if the parent's log reaches the fork point,
    // so that none writes unless the session row is written. Its cost does not depend on the log's length: the fork
    // copies the parent's few segments, cut at the fork point, plus one naming the parent's own rows up to it; runs
    // and tool calls are found by index lookups of their events in the prefix, never by scanning it.
    // The fork's session row is the SQL twin of ForkRule.session, built from the parent's row in this statement so
    // that the fork stays one write: tenant, agent_id, status, settings and metadata are the parent's; name is NULL;
    // id, fork origin (parent id, fork seq) and both timestamps are bound. A change to the rule changes this select
    // list with it (ForkRowTest compares the two); expires_at is left NULL, as a fork has no expiry. The copies after
    // it are the twins of ForkRule's takesSummary, isInPrefix and copy methods: the rows they select, every column
    // but the session id.
    this.lockForFork = "SELECT id FROM " + tables.sessions() + " WHERE id = ? OR id IN (SELECT source_id FROM "
        + tables.segments() + " WHERE session_id = ?) ORDER BY id" + dialect.lockForShare();
    // The fork point is in the parent's log: at most its last seq, after the seq retention cut its head through.
    String forkPoint = " AND EXISTS (SELECT 1 FROM " + tables.sessions() + " x WHERE x.id = ? AND ? BETWEEN"
        + " x.cut_seq + 1 AND x.last_seq)";
    this.fork = WriteChain.after(dialect, "INSERT INTO " + tables.sessions()
            + " (id, name, tenant, agent_id, status, settings, metadata, fork_parent_id, fork_seq, last_seq,"
            + " shared_seq, created_at, updated_at, cut_seq)"
            + " SELECT ?, NULL, tenant, agent_id, status, settings, metadata, id, ?, ?, ?, ?, ?, cut_seq FROM "
            + tables.sessions() + " p WHERE p.id = ? AND ? BETWEEN p.cut_seq + 1 AND p.last_seq"
            + " RETURNING " + SessionRows.COLUMNS,
        List.of(
            // The parent's segments up to the fork point, then its own rows after them up to the fork point.
            "INSERT INTO " + tables.segments() + " (session_id, from_seq, to_seq, source_id)"
                + " SELECT ?, g.from_seq, CASE WHEN g.to_seq < ? THEN g.to_seq ELSE ? END, g.source_id"
                + " FROM " + tables.segments() + " g WHERE g.session_id = ? AND g.from_seq <= ?" + forkPoint
                + " UNION ALL SELECT ?, CASE WHEN p.cut_seq > p.shared_seq THEN p.cut_seq ELSE p.shared_seq END + 1,"
                + " ?, p.id FROM " + tables.sessions() + " p"
                + " WHERE p.id = ? AND p.shared_seq < ? AND ? BETWEEN p.cut_seq + 1 AND p.last_seq",
            "INSERT INTO " + tables.summaries() + " (session_id, to_seq, from_seq, content, version, created_at)"
                + " SELECT ?, s.to_seq, s.from_seq, s.content, s.version, s.created_at"
                + " FROM " + tables.summaries() + " s WHERE s.session_id = ? AND s.to_seq <= ?" + forkPoint,
            // Runs named by an event of the prefix, as they are now, in the order they were written.
            "INSERT INTO " + tables.runs() + " (id, session_id, status, usage, error, created_at, updated_at,"
                + " written_at)"
                + " SELECT r.id, ?, r.status, r.usage, r.error, r.created_at, r.updated_at, r.written_at"
                + " FROM " + tables.runs() + " r WHERE r.session_id = ? AND " + inPrefix(tables, "e.run_id = r.id")
                + forkPoint,
            // Tool calls requested by an event of the prefix, in their current state (a pending one stays pending).
            "INSERT INTO " + tables.toolCalls() + " (id, session_id, run_id, request_event_id, tool_name,"
                + " arguments, status, result, deadline, created_at, updated_at)"
                + " SELECT c.id, ?, c.run_id, c.request_event_id, c.tool_name, c.arguments, c.status, c.result,"
                + " c.deadline, c.created_at, c.updated_at"
                + " FROM " + tables.toolCalls() + " c WHERE c.session_id = ? AND "
                + inPrefix(tables, "e.id = c.request_event_id") + forkPoint,
            "INSERT INTO " + tables.sessionCheckpoints() + " (session_id, name, data, updated_at)"
                + " SELECT ?, k.name, k.data, k.updated_at"
                + " FROM " + tables.sessionCheckpoints() + " k WHERE k.session_id = ?" + forkPoint));
    this.dependents = new Dependents(dialect, tables);
    this.fences = new WriterFences(database, tables);
  }

  /**
   * A condition that holds when an event of the parent's log up to the fork point matches {@code match} (a condition
   * on alias {@code e} that an index serves), among its own rows or the rows it shares: the first matching own seq,
   * then each shared segment, by index lookups per row of the table copied. Written so that the database cannot turn
   * it into one scan of the prefix (a hashed subplan of every event up to the fork point). Parameters: parent id,
   * fork seq, parent id, fork seq, fork seq.
   */
  private static String inPrefix(Tables tables, String match) {
    return "((SELECT min(e.seq) FROM " + tables.events() + " e WHERE e.session_id = ? AND " + match + ") <= ?"
        + " OR EXISTS (SELECT 1 FROM " + tables.segments() + " g WHERE g.session_id = ?"
        + " AND g.source_id <> g.session_id AND g.from_seq <= ? AND EXISTS (SELECT 1 FROM " + tables.events() + " e"
        + " WHERE e.session_id = g.source_id AND " + match + " AND e.seq >= g.from_seq AND e.seq <= g.to_seq"
        + " AND e.seq <= ?)))";
  }

  @Override
  public Session save(SessionWrite write) {
    return database.transaction("save session " + write.id(),
        connection -> save(connection, write, clock.instant()).session());
  }

  /**
   * Saves {@code write} in the caller's transaction and keeps the session's row locked until commit, so that a
   * step can append under the same lock.
   *
   * @throws ConflictException if the write names the session with a name another session has
   */
  Saved save(Connection connection, SessionWrite write, Instant now) throws SQLException {
    if (write.expiresAt() != null) {
      dialect.requireStorable("session.expiresAt", write.expiresAt());
    }
    while (true) {
      Optional<Saved> stored = lock(connection, write.id());
      Session merged = Upserts.session(write, stored.map(Saved::session).orElse(null), now);
      try {
        if (stored.isPresent()) {
          update(connection, merged);
          return new Saved(merged, stored.get().lastSeq());
        }
        if (sql.update(connection, insert, merged.id(), merged.name(), merged.tenant(), merged.agentId(),
            merged.status().value(), merged.settings(), MetadataJson.write(merged.metadata()), merged.createdAt(),
            merged.updatedAt(), merged.expiresAt()) == 1) {
          return new Saved(merged, 0);
        }
        // Created by another transaction since our read: merge into that one instead.
      } catch (SQLException e) {
        if (dialect.classify(e).violates(dialect.uniqueKeyName(tables, UniqueKey.SESSION_NAME))) {
          throw Failures.nameTaken(merged.name());
        }
        throw e;
      }
    }
  }

  @Override
  public Session mergeMetadata(String sessionId, Map<String, String> patch) {
    SessionWrite write = SessionWrite.of(sessionId).withMetadata(patch);
    return database.transaction("merge metadata into session " + sessionId, connection -> {
      Session stored = lock(connection, sessionId).orElseThrow(() -> Failures.sessionNotFound(sessionId))
          .session();
      Session merged = Upserts.session(write, stored, clock.instant());
      update(connection, merged);
      return merged;
    });
  }

  /** The session as stored with the last seq of its log, its row locked until commit; empty if unknown. */
  private Optional<Saved> lock(Connection connection, String sessionId) throws SQLException {
    return sql.first(connection, selectForUpdate, row -> new Saved(sessions.map(row), row.getLong("last_seq")),
        sessionId);
  }

  /** Writes every field of a stored session but its last seq, fork origin and creation time. */
  private void update(Connection connection, Session session) throws SQLException {
    sql.update(connection, update, session.name(), session.tenant(), session.agentId(), session.status().value(),
        session.settings(), MetadataJson.write(session.metadata()), session.updatedAt(), session.expiresAt(),
        session.id());
  }

  @Override
  public Optional<Session> find(String sessionId) {
    return database.read("find session " + sessionId, connection -> find(connection, sessionId));
  }

  /** The session as stored, read in the caller's transaction; empty if unknown. */
  Optional<Session> find(Connection connection, String sessionId) throws SQLException {
    return sql.first(connection, "SELECT " + SessionRows.COLUMNS + " FROM " + tables.sessions() + " WHERE id = ?",
        sessions, sessionId);
  }

  @Override
  public Optional<Session> findByName(String name) {
    return database.read("find session named " + name, connection -> sql.first(connection,
        "SELECT " + SessionRows.COLUMNS + " FROM " + tables.sessions() + " WHERE name = ?", sessions, name));
  }

  @Override
  public SessionPage list(SessionQuery query) {
    StringBuilder statement = new StringBuilder("SELECT " + SessionRows.COLUMNS + " FROM " + tables.sessions()
        + " WHERE TRUE");
    List<Object> parameters = new ArrayList<>();
    if (query.status() != null) {
      statement.append(" AND status = ?");
      parameters.add(query.status().value());
    }
    if (query.agentId() != null) {
      statement.append(" AND agent_id = ?");
      parameters.add(query.agentId());
    }
    if (query.name() != null) {
      statement.append(" AND name = ?");
      parameters.add(query.name());
    }
    if (query.tenant() != null) {
      statement.append(" AND tenant = ?");
      parameters.add(query.tenant());
    }
    if (!query.metadata().isEmpty()) {
      statement.append(" AND ").append(dialect.containsMetadata("metadata"));
      parameters.add(MetadataJson.write(query.metadata()));
    }
    if (query.expiresBefore() != null) {
      statement.append(expiresBefore(query.expiresBefore(), parameters));
    }
    if (query.cursor() != null) {
      SessionCursor cursor = SessionCursor.decode(query.cursor());
      statement.append(" AND (created_at, id) > (?, ?)");
      parameters.add(cursor.createdAt());
      parameters.add(cursor.id());
    }
    statement.append(" ORDER BY created_at, id");
    // Every database takes LIMIT before OFFSET, and some (SQLite) take no OFFSET without one.
    if (query.limit().isPresent() || query.offset() > 0) {
      statement.append(" LIMIT ?");
      parameters.add(query.limit().isPresent() ? query.limit().getAsInt() + 1L : Long.MAX_VALUE);
    }
    if (query.offset() > 0) {
      statement.append(" OFFSET ?");
      parameters.add((long) query.offset());
    }
    List<Session> rows = database.read("list sessions",
        connection -> sql.list(connection, statement.toString(), sessions, parameters.toArray()));
    if (query.limit().isEmpty() || rows.size() <= query.limit().getAsInt()) {
      return new SessionPage(rows, Optional.empty());
    }
    List<Session> items = rows.subList(0, query.limit().getAsInt());
    return new SessionPage(items, Optional.of(SessionCursor.after(items.get(items.size() - 1)).encode()));
  }

  /**
   * The condition of {@link SessionQuery#expiresBefore}, which the partial index on expiries serves (a range of it):
   * an instant beyond what the column stores selects every expiry (all are before it) or none (none are).
   */
  private String expiresBefore(Instant before, List<Object> parameters) {
    if (dialect.isStorable(before)) {
      parameters.add(before);
      return " AND expires_at < ?";
    }
    return before.isAfter(dialect.earliestStorable()) ? " AND expires_at IS NOT NULL" : " AND FALSE";
  }

  /**
   * The sessions {@link ResumeRule#resumesEagerly} selects, filtered in the database with the rule's member and value
   * bound as parameters; the schema's partial index on resumable sessions has the same predicate with them inlined.
   */
  @Override
  public List<String> listResumable() {
    return database.read("list resumable sessions", connection -> sql.list(connection,
        "SELECT id FROM " + tables.sessions() + " WHERE " + dialect.jsonTextField("settings") + " = ? ORDER BY id",
        row -> row.getString(1), ResumeRule.SETTING, ResumeRule.EAGER));
  }

  @Override
  public Session fork(String sessionId, long atSeq) {
    return fork(sessionId, atSeq, UUID.randomUUID().toString());
  }

  @Override
  public Session fork(String sessionId, long atSeq, String newSessionId) {
    Instant now = clock.instant();
    // A lost commit is settled by the new id: a session under it forked from this parent at this seq is this fork.
    UnknownOutcome<Session> ifUnknown = UnknownOutcome.check(connection -> sql.first(connection,
        "SELECT " + SessionRows.COLUMNS + " FROM " + tables.sessions()
            + " WHERE id = ? AND fork_parent_id = ? AND fork_seq = ?", sessions, newSessionId, sessionId, atSeq));
    return database.transaction("fork session " + sessionId + " at seq " + atSeq, ifUnknown, connection -> {
      Optional<Session> forked;
      try {
        sql.list(connection, lockForFork, row -> row.getString(1), sessionId, sessionId);
        forked = fork.first(connection, sessions,
            new Object[] {newSessionId, atSeq, atSeq, atSeq, now, now, sessionId, atSeq},
            new Object[] {newSessionId, atSeq, atSeq, sessionId, atSeq, sessionId, atSeq, newSessionId, atSeq,
                sessionId, atSeq, atSeq},
            new Object[] {newSessionId, sessionId, atSeq, sessionId, atSeq},
            new Object[] {newSessionId, sessionId, sessionId, atSeq, sessionId, atSeq, atSeq, sessionId, atSeq},
            new Object[] {newSessionId, sessionId, sessionId, atSeq, sessionId, atSeq, atSeq, sessionId, atSeq},
            new Object[] {newSessionId, sessionId, sessionId, atSeq});
      } catch (SQLException e) {
        if (dialect.classify(e).violates(dialect.uniqueKeyName(tables, UniqueKey.SESSION_ID))) {
          throw Failures.forkTargetExists(newSessionId);
        }
        throw e;
      }
      if (forked.isPresent()) {
        return forked.get();
      }
      boolean parentExists = sql.first(connection, "SELECT 1 FROM " + tables.sessions() + " WHERE id = ?",
          row -> true, sessionId).isPresent();
      throw parentExists
          ? Failures.forkPointNotFound(sessionId, atSeq)
          : Failures.sessionNotFound(sessionId);
    });
  }

  @Override
  public WriterClaim claim(String sessionId, String ownerId) {
    return fences.claim(sessionId, ownerId);
  }

  @Override
  public Optional<WriterClaim> currentClaim(String sessionId) {
    return fences.currentClaim(sessionId);
  }

  /** Writer fencing, for the steps that carry a token. */
  WriterFences fences() {
    return fences;
  }

  @Override
  public boolean delete(String sessionId) {
    return database.transaction("delete session " + sessionId, UnknownOutcome.ownResult(), connection ->
        deleteEvents(connection, dependents.lockTogether(connection, List.of(sessionId), 1), "id", sessionId)
            > 0);
  }

  @Override
  public int deleteByTenant(String tenant) {
    return database.transaction("delete the sessions of tenant " + tenant, UnknownOutcome.ownResult(), connection ->
        deleteEvents(connection, dependents.lockTogether(connection, sql.list(connection, "SELECT id FROM "
            + tables.sessions() + " WHERE tenant = ?", row -> row.getString(1), tenant), 1), "tenant", tenant));
  }

  /** How the sessions sharing events with a session are locked and kept whole, for retention. */
  Dependents dependents() {
    return dependents;
  }

  /**
   * Deletes {@code locked}, sessions whose rows this transaction has locked together with the sessions sharing their
   * events ({@link Dependents#lockTogether} or {@link Dependents#tryLockTogether}), with everything they own; forks
   * keep what they show. Returns how many sessions went.
   */
  int deleteLocked(Connection connection, List<String> locked) throws SQLException {
    int deleted = 0;
    for (String sessionId : locked) {
      deleted += deleteEvents(connection, List.of(sessionId), "id", sessionId);
    }
    return deleted;
  }

  /**
   * Deletes {@code locked}, sessions whose rows this transaction has locked together with the sessions sharing their
   * events ({@link Dependents#lockTogether}, in the id order of a fork's locks), and their events (the other tables
   * they own, segments included, follow by their foreign keys), after copying into their forks what the forks share
   * of them ({@link Dependents}); returns how many sessions. Only those whose {@code column} still holds
   * {@code value} go. The events table has no foreign key: deleting a row waits for an append
   * that holds its lock, and this later statement sees that append's events.
   */
  private int deleteEvents(Connection connection, List<String> locked, String column, String value)
      throws SQLException {
    if (locked.isEmpty()) {
      return 0;
    }
    List<String> deleted = sql.list(connection, "DELETE FROM " + tables.sessions() + " WHERE " + column + " = ? AND "
        + dialect.isAnyOf("id") + " RETURNING id", row -> row.getString(1), value,
        dialect.textList(connection, locked));
    if (!deleted.isEmpty()) {
      dependents.keepWhole(connection, deleted, 1);
      sql.update(connection, "DELETE FROM " + tables.events() + " WHERE " + dialect.isAnyOf("session_id"),
          dialect.textList(connection, deleted));
    }
    return deleted.size();
  }
}
