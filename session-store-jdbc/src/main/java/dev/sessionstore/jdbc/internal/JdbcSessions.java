package dev.sessionstore.jdbc.internal;

import dev.sessionstore.ConflictException;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.Session;
import dev.sessionstore.SessionPage;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Sessions;
import dev.sessionstore.spi.Arguments;
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

  /** A session as stored, with the head of its log. */
  record Saved(Session session, long lastSeq) {
  }

  private final Database database;
  private final Tables tables;
  private final Clock clock;
  private final RowMapper<Session> sessions;
  private final String selectForUpdate;
  private final String insert;
  private final String update;
  private final String fork;

  JdbcSessions(Database database, Tables tables, Clock clock) {
    this.database = database;
    this.tables = tables;
    this.clock = clock;
    Dialect dialect = database.dialect();
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
    // One statement, one snapshot: the parent, the event at atSeq and everything copied agree even while the parent
    // is appended to, truncated or resolves its calls; its rows are read, never locked.
    this.fork = "WITH parent AS ("
        + "SELECT p.* FROM " + tables.sessions() + " p WHERE p.id = ? AND EXISTS ("
        + "SELECT 1 FROM " + tables.events() + " e WHERE e.session_id = p.id AND e.seq = ?)"
        + "), fork AS ("
        + "INSERT INTO " + tables.sessions() + " (id, name, tenant, agent_id, status, settings, metadata,"
        + " fork_parent_id, fork_seq, last_seq, created_at, updated_at)"
        + " SELECT ?, NULL, tenant, agent_id, status, settings, metadata, id, ?, ?, ?, ? FROM parent"
        + " RETURNING " + SessionRows.COLUMNS
        + "), copied_events AS ("
        + "INSERT INTO " + tables.events() + " (" + EventRows.COLUMNS + ")"
        + " SELECT fork.id, e.seq, e.id, e.type, e.run_id, e.agent_id, e.parent_id, e.payload, e.ts"
        + " FROM fork JOIN " + tables.events() + " e ON e.session_id = ? AND e.seq <= ?"
        + "), copied_summaries AS ("
        + "INSERT INTO " + tables.summaries() + " (session_id, to_seq, from_seq, content, version, created_at)"
        + " SELECT fork.id, s.to_seq, s.from_seq, s.content, s.version, s.created_at"
        + " FROM fork JOIN " + tables.summaries() + " s ON s.session_id = ? AND s.to_seq <= ?"
        // Runs named by an event of the prefix, as they are now.
        + "), copied_runs AS ("
        + "INSERT INTO " + tables.runs() + " (id, session_id, status, usage, error, created_at, updated_at)"
        + " SELECT r.id, fork.id, r.status, r.usage, r.error, r.created_at, r.updated_at"
        + " FROM fork JOIN " + tables.runs() + " r ON r.session_id = ? AND r.id IN ("
        + "SELECT e.run_id FROM " + tables.events() + " e WHERE e.session_id = ? AND e.seq <= ?)"
        // Tool calls requested by an event of the prefix, in their current state (a pending one stays pending).
        + "), copied_tool_calls AS ("
        + "INSERT INTO " + tables.toolCalls() + " (id, session_id, run_id, request_event_id, tool_name, arguments,"
        + " status, result, deadline, created_at, updated_at)"
        + " SELECT c.id, fork.id, c.run_id, c.request_event_id, c.tool_name, c.arguments, c.status, c.result,"
        + " c.deadline, c.created_at, c.updated_at"
        + " FROM fork JOIN " + tables.toolCalls() + " c ON c.session_id = ? AND c.request_event_id IN ("
        + "SELECT e.id FROM " + tables.events() + " e WHERE e.session_id = ? AND e.seq <= ?)"
        + "), copied_checkpoints AS ("
        + "INSERT INTO " + tables.sessionCheckpoints() + " (session_id, name, data, updated_at)"
        + " SELECT fork.id, k.name, k.data, k.updated_at"
        + " FROM fork JOIN " + tables.sessionCheckpoints() + " k ON k.session_id = ?"
        + ") SELECT " + SessionRows.COLUMNS + " FROM fork";
  }

  @Override
  public Session save(SessionWrite write) {
    Arguments.requireNonNull("session", write);
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
        if (Sql.update(connection, insert, merged.id(), merged.name(), merged.tenant(), merged.agentId(),
            merged.status().value(), merged.settings(), MetadataJson.write(merged.metadata()), merged.createdAt(),
            merged.updatedAt()) == 1) {
          return new Saved(merged, 0);
        }
        // Created by another transaction since our read: merge into that one instead.
      } catch (SQLException e) {
        if (database.dialect().classify(e).violates(tables.name("sessions_name_key"))) {
          throw new ConflictException("session name " + merged.name() + " is taken by another session");
        }
        throw e;
      }
    }
  }

  @Override
  public Session mergeMetadata(String sessionId, Map<String, String> patch) {
    Arguments.requireKey("sessionId", sessionId);
    SessionWrite write = SessionWrite.of(sessionId).withMetadata(Arguments.requireNonNull("metadata", patch));
    return database.transaction("merge metadata into session " + sessionId, connection -> {
      Session stored = lock(connection, sessionId).orElseThrow(() -> new NotFoundException("session", sessionId))
          .session();
      Session merged = Upserts.session(write, stored, clock.instant());
      update(connection, merged);
      return merged;
    });
  }

  /** The session as stored with the head of its log, its row locked until commit; empty if unknown. */
  private Optional<Saved> lock(Connection connection, String sessionId) throws SQLException {
    return Sql.first(connection, selectForUpdate, row -> new Saved(sessions.map(row), row.getLong("last_seq")),
        sessionId);
  }

  /** Writes every field of a stored session but its head and fork origin. */
  private void update(Connection connection, Session session) throws SQLException {
    Sql.update(connection, update, session.name(), session.tenant(), session.agentId(), session.status().value(),
        session.settings(), MetadataJson.write(session.metadata()), session.updatedAt(), session.id());
  }

  @Override
  public Optional<Session> find(String sessionId) {
    Arguments.requireKey("sessionId", sessionId);
    return database.read("find session " + sessionId, connection -> Sql.first(connection,
        "SELECT " + SessionRows.COLUMNS + " FROM " + tables.sessions() + " WHERE id = ?", sessions, sessionId));
  }

  @Override
  public Optional<Session> findByName(String name) {
    Arguments.requireKey("name", name);
    return database.read("find session named " + name, connection -> Sql.first(connection,
        "SELECT " + SessionRows.COLUMNS + " FROM " + tables.sessions() + " WHERE name = ?", sessions, name));
  }

  @Override
  public SessionPage list(SessionQuery query) {
    Arguments.requireNonNull("query", query);
    SessionCursor cursor = query.cursor() == null ? null : SessionCursor.decode(query.cursor());
    StringBuilder sql = new StringBuilder("SELECT " + SessionRows.COLUMNS + " FROM " + tables.sessions()
        + " WHERE TRUE");
    List<Object> parameters = new ArrayList<>();
    if (query.status() != null) {
      sql.append(" AND status = ?");
      parameters.add(query.status().value());
    }
    if (query.agentId() != null) {
      sql.append(" AND agent_id = ?");
      parameters.add(query.agentId());
    }
    if (query.name() != null) {
      sql.append(" AND name = ?");
      parameters.add(query.name());
    }
    if (query.tenant() != null) {
      sql.append(" AND tenant = ?");
      parameters.add(query.tenant());
    }
    if (!query.metadata().isEmpty()) {
      sql.append(" AND metadata @> ").append(database.dialect().metadataParameter());
      parameters.add(MetadataJson.write(query.metadata()));
    }
    if (cursor != null) {
      sql.append(" AND (created_at, id) > (?, ?)");
      parameters.add(cursor.createdAt());
      parameters.add(cursor.id());
    }
    sql.append(" ORDER BY created_at, id");
    if (query.limit().isPresent()) {
      sql.append(" LIMIT ?");
      parameters.add(query.limit().getAsInt() + 1L);
    }
    if (query.offset() > 0) {
      sql.append(" OFFSET ?");
      parameters.add((long) query.offset());
    }
    List<Session> rows = database.read("list sessions",
        connection -> Sql.list(connection, sql.toString(), sessions, parameters.toArray()));
    if (query.limit().isEmpty() || rows.size() <= query.limit().getAsInt()) {
      return new SessionPage(rows, Optional.empty());
    }
    List<Session> items = rows.subList(0, query.limit().getAsInt());
    return new SessionPage(items, Optional.of(SessionCursor.after(items.get(items.size() - 1)).encode()));
  }

  @Override
  public List<String> listResumable() {
    return database.read("list resumable sessions", connection -> Sql.list(connection,
        "SELECT id FROM " + tables.sessions() + " WHERE settings ->> 'resume_policy' = 'eager' ORDER BY id",
        row -> row.getString(1)));
  }

  @Override
  public Session fork(String sessionId, long atSeq) {
    return fork(sessionId, atSeq, UUID.randomUUID().toString());
  }

  @Override
  public Session fork(String sessionId, long atSeq, String newSessionId) {
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requirePositive("atSeq", atSeq);
    Arguments.requireKey("newSessionId", newSessionId);
    Instant now = clock.instant();
    // A lost commit is settled by the new id: a session under it forked from this parent at this seq is this fork.
    UnknownOutcome<Session> ifUnknown = UnknownOutcome.check(connection -> Sql.first(connection,
        "SELECT " + SessionRows.COLUMNS + " FROM " + tables.sessions()
            + " WHERE id = ? AND fork_parent_id = ? AND fork_seq = ?", sessions, newSessionId, sessionId, atSeq));
    return database.autoCommit("fork session " + sessionId + " at seq " + atSeq, ifUnknown, connection -> {
      Optional<Session> forked;
      try {
        forked = Sql.first(connection, fork, sessions, sessionId, atSeq, newSessionId, atSeq, atSeq, now, now,
            sessionId, atSeq, sessionId, atSeq, sessionId, sessionId, atSeq, sessionId, sessionId, atSeq, sessionId);
      } catch (SQLException e) {
        if (database.dialect().classify(e).violates(tables.name("sessions_pkey"))) {
          throw new ConflictException("cannot fork into session " + newSessionId + ": it exists");
        }
        throw e;
      }
      if (forked.isPresent()) {
        return forked.get();
      }
      boolean parentExists = Sql.first(connection, "SELECT 1 FROM " + tables.sessions() + " WHERE id = ?",
          row -> true, sessionId).isPresent();
      throw parentExists
          ? new NotFoundException("event", "seq " + atSeq + " of session " + sessionId)
          : new NotFoundException("session", sessionId);
    });
  }

  @Override
  public boolean delete(String sessionId) {
    Arguments.requireKey("sessionId", sessionId);
    return database.autoCommit("delete session " + sessionId, connection ->
        Sql.update(connection, "DELETE FROM " + tables.sessions() + " WHERE id = ?", sessionId) > 0);
  }

  @Override
  public int deleteByTenant(String tenant) {
    Arguments.requireKey("tenant", tenant);
    return database.autoCommit("delete the sessions of tenant " + tenant, connection ->
        Sql.update(connection, "DELETE FROM " + tables.sessions() + " WHERE tenant = ?", tenant));
  }
}
