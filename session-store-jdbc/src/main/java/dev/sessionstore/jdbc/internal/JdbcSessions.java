package dev.sessionstore.jdbc.internal;

import dev.sessionstore.ConflictException;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.Session;
import dev.sessionstore.SessionPage;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Sessions;
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
 * back; a fork copies the parent's rows server-side in one statement, by the rule of
 * {@link dev.sessionstore.spi.ForkRule}; deletion cascades through the foreign keys.
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
  private final WriteChain fork;

  JdbcSessions(Database database, Tables tables, Clock clock) {
    this.database = database;
    this.tables = tables;
    this.clock = clock;
    this.dialect = database.dialect();
    this.sql = new Sql(dialect);
    this.sessions = SessionRows.mapper(dialect);
    this.selectForUpdate = "SELECT " + SessionRows.COLUMNS + ", last_seq FROM " + tables.sessions()
        + " WHERE id = ?" + dialect.lockForUpdate();
    String json = dialect.jsonParameter();
    String metadata = dialect.metadataParameter();
    this.insert = "INSERT INTO " + tables.sessions()
        + " (id, name, tenant, agent_id, status, settings, metadata, created_at, updated_at)"
        + " VALUES (?, ?, ?, ?, ?, " + json + ", " + metadata + ", ?, ?)" + dialect.onConflictIgnore("id");
    this.update = "UPDATE " + tables.sessions() + " SET name = ?, tenant = ?, agent_id = ?, status = ?, settings = "
        + json + ", metadata = " + metadata + ", updated_at = ? WHERE id = ?";
    // The new session, then everything it takes from the parent. Each write reads the parent's rows only if the
    // parent holds the event at the fork point, so that none writes unless the session row is written. Chained, one
    // statement and one snapshot: the parent, the event at the fork point and everything copied agree even while the
    // parent is appended to, truncated or resolves its calls; its rows are read, never locked. Unchained, the first
    // write locks the parent's row against truncation until commit.
    // The fork's session row is the SQL twin of ForkRule.session, built from the parent's row in this statement so
    // that the fork stays one round trip: tenant, agent_id, status, settings and metadata are the parent's; name is
    // NULL; id, fork origin (parent id, fork seq) and both timestamps are bound. A change to the rule changes this
    // select list with it (ForkRowTest compares the two). The copies after it are the twins of ForkRule's
    // takesSummary, runIds, takesToolCall and copy methods: the rows they select, every column but the session id.
    String forkPoint = " AND EXISTS (SELECT 1 FROM " + tables.events() + " x WHERE x.session_id = %s AND x.seq = ?)";
    String parentForkPoint = forkPoint.formatted("?");
    this.fork = WriteChain.after(dialect, "INSERT INTO " + tables.sessions()
            + " (id, name, tenant, agent_id, status, settings, metadata, fork_parent_id, fork_seq, last_seq,"
            + " created_at, updated_at)"
            + " SELECT ?, NULL, tenant, agent_id, status, settings, metadata, id, ?, ?, ?, ? FROM " + tables.sessions()
            + " p WHERE p.id = ?" + forkPoint.formatted("p.id")
            + (dialect.chainsWrites() ? "" : dialect.lockForShare())
            + " RETURNING " + SessionRows.COLUMNS,
        List.of(
            "INSERT INTO " + tables.events() + " (" + EventRows.COLUMNS + ")"
                + " SELECT ?, e.seq, e.id, e.type, e.run_id, e.agent_id, e.parent_id, e.payload, e.ts"
                + " FROM " + tables.events() + " e WHERE e.session_id = ? AND e.seq <= ?" + parentForkPoint,
            "INSERT INTO " + tables.summaries() + " (session_id, to_seq, from_seq, content, version, created_at)"
                + " SELECT ?, s.to_seq, s.from_seq, s.content, s.version, s.created_at"
                + " FROM " + tables.summaries() + " s WHERE s.session_id = ? AND s.to_seq <= ?" + parentForkPoint,
            // Runs named by an event of the prefix, as they are now, in the order they were written.
            "INSERT INTO " + tables.runs() + " (id, session_id, status, usage, error, created_at, updated_at,"
                + " written_at)"
                + " SELECT r.id, ?, r.status, r.usage, r.error, r.created_at, r.updated_at, r.written_at"
                + " FROM " + tables.runs() + " r WHERE r.session_id = ? AND r.id IN ("
                + "SELECT e.run_id FROM " + tables.events() + " e WHERE e.session_id = ? AND e.seq <= ?)"
                + parentForkPoint,
            // Tool calls requested by an event of the prefix, in their current state (a pending one stays pending).
            "INSERT INTO " + tables.toolCalls() + " (id, session_id, run_id, request_event_id, tool_name,"
                + " arguments, status, result, deadline, created_at, updated_at)"
                + " SELECT c.id, ?, c.run_id, c.request_event_id, c.tool_name, c.arguments, c.status, c.result,"
                + " c.deadline, c.created_at, c.updated_at"
                + " FROM " + tables.toolCalls() + " c WHERE c.session_id = ? AND c.request_event_id IN ("
                + "SELECT e.id FROM " + tables.events() + " e WHERE e.session_id = ? AND e.seq <= ?)" + parentForkPoint,
            "INSERT INTO " + tables.sessionCheckpoints() + " (session_id, name, data, updated_at)"
                + " SELECT ?, k.name, k.data, k.updated_at"
                + " FROM " + tables.sessionCheckpoints() + " k WHERE k.session_id = ?" + parentForkPoint));
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
            merged.updatedAt()) == 1) {
          return new Saved(merged, 0);
        }
        // Created by another transaction since our read: merge into that one instead.
      } catch (SQLException e) {
        if (dialect.classify(e).violates(dialect.uniqueKeyName(tables, UniqueKey.SESSION_NAME))) {
          throw new ConflictException("session name " + merged.name() + " is taken by another session");
        }
        throw e;
      }
    }
  }

  @Override
  public Session mergeMetadata(String sessionId, Map<String, String> patch) {
    SessionWrite write = SessionWrite.of(sessionId).withMetadata(patch);
    return database.transaction("merge metadata into session " + sessionId, connection -> {
      Session stored = lock(connection, sessionId).orElseThrow(() -> new NotFoundException("session", sessionId))
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

  /** Writes every field of a stored session but its last seq and fork origin. */
  private void update(Connection connection, Session session) throws SQLException {
    sql.update(connection, update, session.name(), session.tenant(), session.agentId(), session.status().value(),
        session.settings(), MetadataJson.write(session.metadata()), session.updatedAt(), session.id());
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
    return database.autoCommit("fork session " + sessionId + " at seq " + atSeq, ifUnknown, connection -> {
      Optional<Session> forked;
      try {
        forked = fork.first(connection, sessions,
            new Object[] {newSessionId, atSeq, atSeq, now, now, sessionId, atSeq},
            new Object[] {newSessionId, sessionId, atSeq, sessionId, atSeq},
            new Object[] {newSessionId, sessionId, atSeq, sessionId, atSeq},
            new Object[] {newSessionId, sessionId, sessionId, atSeq, sessionId, atSeq},
            new Object[] {newSessionId, sessionId, sessionId, atSeq, sessionId, atSeq},
            new Object[] {newSessionId, sessionId, sessionId, atSeq});
      } catch (SQLException e) {
        if (dialect.classify(e).violates(dialect.uniqueKeyName(tables, UniqueKey.SESSION_ID))) {
          throw new ConflictException("cannot fork into session " + newSessionId + ": it exists");
        }
        throw e;
      }
      if (forked.isPresent()) {
        return forked.get();
      }
      boolean parentExists = sql.first(connection, "SELECT 1 FROM " + tables.sessions() + " WHERE id = ?",
          row -> true, sessionId).isPresent();
      throw parentExists
          ? new NotFoundException("event", "seq " + atSeq + " of session " + sessionId)
          : new NotFoundException("session", sessionId);
    });
  }

  @Override
  public boolean delete(String sessionId) {
    return database.transaction("delete session " + sessionId, connection ->
        deleteEvents(connection, sql.list(connection, "DELETE FROM " + tables.sessions() + " WHERE id = ?"
            + " RETURNING id", row -> row.getString(1), sessionId)) > 0);
  }

  @Override
  public int deleteByTenant(String tenant) {
    return database.transaction("delete the sessions of tenant " + tenant, connection ->
        deleteEvents(connection, sql.list(connection, "DELETE FROM " + tables.sessions() + " WHERE tenant = ?"
            + " RETURNING id", row -> row.getString(1), tenant)));
  }

  /**
   * Deletes the events of {@code deleted}, sessions whose rows this transaction has just deleted (the other tables
   * they own follow by their foreign keys); returns how many sessions. The events table has no foreign key: deleting
   * a row waits for an append that holds its lock, and this later statement sees that append's events.
   */
  private int deleteEvents(Connection connection, List<String> deleted) throws SQLException {
    if (!deleted.isEmpty()) {
      sql.update(connection, "DELETE FROM " + tables.events() + " WHERE " + dialect.isAnyOf("session_id"),
          dialect.textList(connection, deleted));
    }
    return deleted.size();
  }
}
