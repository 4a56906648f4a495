package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.SessionStore;
import dev.sessionstore.benchmarks.Events;
import dev.sessionstore.benchmarks.StoreKind;
import dev.sessionstore.springai.session.SessionStoreSessionRepository;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.session.Session;
import org.springframework.ai.session.SessionEvent;
import org.springframework.ai.session.SessionRepository;
import org.springframework.ai.session.jdbc.JdbcSessionRepository;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * The two sides of a spring-ai-session measure on the measured PostgreSQL: the library's
 * {@link SessionStoreSessionRepository} over a store in a fresh schema of its own, and spring-ai-session's
 * {@link JdbcSessionRepository} in another fresh schema holding the tables of the PostgreSQL script its jar ships
 * ({@value #SCHEMA_SCRIPT}), each through a pool of the same settings ({@link PgSchema#pool()}). Both sides get the
 * same sessions and the same events (same ids, messages, times). Closing it closes the store and drops both schemas.
 */
final class SpringAiSessionSides implements AutoCloseable {

  static final String SCHEMA_SCRIPT = "org/springframework/ai/session/jdbc/schema-postgresql.sql";
  private static final String USER = "bench-user";
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private final String url;
  private final PgSchema librarySchema;
  private final PgSchema baselineSchema;
  private final SessionStore store;
  private final SessionRepository library;
  private final SessionRepository baseline;

  private SpringAiSessionSides(String url, PgSchema librarySchema, PgSchema baselineSchema, SessionStore store) {
    this.url = url;
    this.librarySchema = librarySchema;
    this.baselineSchema = baselineSchema;
    this.store = store;
    this.library = SessionStoreSessionRepository.of(store);
    DataSource pool = baselineSchema.pool();
    new ResourceDatabasePopulator(new ClassPathResource(SCHEMA_SCRIPT)).execute(pool);
    this.baseline = JdbcSessionRepository.builder().dataSource(pool).build();
  }

  /** Fresh schemas named after {@code purpose}, the library's with its tables, the baseline's with spring-ai-session's. */
  static SpringAiSessionSides open(Bench bench, String purpose) throws SQLException {
    PgSchema librarySchema = bench.schemaWithTables(purpose);
    PgSchema baselineSchema = null;
    SessionStore store = null;
    try {
      baselineSchema = bench.schema(purpose + "_jdbc");
      store = librarySchema.openStore();
      return new SpringAiSessionSides(bench.jdbcUrl(), librarySchema, baselineSchema, store);
    } catch (SQLException | RuntimeException e) {
      try (PgSchema first = librarySchema; PgSchema second = baselineSchema; SessionStore opened = store) {
        throw e;
      }
    }
  }

  /** {@code SessionStoreSessionRepository} over the library's store. */
  SessionRepository library() {
    return library;
  }

  /** spring-ai-session's {@code JdbcSessionRepository}. */
  SessionRepository baseline() {
    return baseline;
  }

  /** Creates session {@code sessionId} on both sides, empty. */
  void createSession(String sessionId) {
    Session session = Session.builder().id(sessionId).userId(USER).createdAt(T0).build();
    library.save(session);
    baseline.save(session);
  }

  /** Creates session {@code sessionId} on both sides with {@code count} events, appended one by one through each side. */
  void createSession(String sessionId, int count) {
    createSession(sessionId);
    for (int i = 0; i < count; i++) {
      SessionEvent event = event(sessionId, sessionId + "-" + i, i);
      library.appendEvent(event);
      baseline.appendEvent(event);
    }
  }

  /**
   * Event {@code i} of a conversation: user and assistant messages alternating, the benchmarks' usual text, a time a
   * millisecond after the previous one's. Event ids are the caller's; spring-ai-session's table wants them unique
   * across sessions.
   */
  static SessionEvent event(String sessionId, String id, long i) {
    return SessionEvent.builder().id(id).sessionId(sessionId).timestamp(T0.plusMillis(i))
        .message(i % 2 == 0 ? new UserMessage(Events.TEXT) : new AssistantMessage(Events.TEXT)).build();
  }

  /**
   * Copies the library's session {@code from} into a new session {@code to}, server-side: its row and its events'
   * rows, every column as stored but the session's id. The session then holds what appending the same events would
   * have left, without the cost of appending them; see {@link #copyBaselineSession}.
   */
  void copyLibrarySession(String from, String to) throws SQLException {
    try (Connection connection = DriverManager.getConnection(url)) {
      connection.setAutoCommit(false);
      copyRows(connection, librarySchema.name() + "." + StoreKind.TABLE_PREFIX + "sessions", "id", from, to,
          Map.of("id", "?"));
      copyRows(connection, librarySchema.name() + "." + StoreKind.TABLE_PREFIX + "events", "session_id", from, to,
          Map.of("session_id", "?"));
      connection.commit();
    }
  }

  /**
   * Copies the baseline's session {@code from} into a new session {@code to}, as {@link #copyLibrarySession} does;
   * its event ids, one table's primary key, get {@code "@" + to} appended.
   */
  void copyBaselineSession(String from, String to) throws SQLException {
    try (Connection connection = DriverManager.getConnection(url)) {
      connection.setAutoCommit(false);
      copyRows(connection, baselineSchema.name() + ".ai_session", "id", from, to, Map.of("id", "?"));
      copyRows(connection, baselineSchema.name() + ".ai_session_event", "session_id", from, to,
          Map.of("session_id", "?", "id", "id || '@' || ?"));
      connection.commit();
    }
  }

  /**
   * {@code INSERT INTO table SELECT ... FROM table WHERE key = from}: every column as stored but those of
   * {@code replaced}, which take its SQL expression instead, with {@code to} bound to its one parameter.
   */
  private static void copyRows(Connection connection, String table, String key, String from, String to,
      Map<String, String> replaced) throws SQLException {
    String schema = table.substring(0, table.indexOf('.'));
    List<String> columns = new ArrayList<>();
    try (PreparedStatement query = connection.prepareStatement("SELECT column_name FROM information_schema.columns"
        + " WHERE table_schema = ? AND table_name = ? AND is_generated = 'NEVER' ORDER BY ordinal_position")) {
      query.setString(1, schema);
      query.setString(2, table.substring(schema.length() + 1));
      try (ResultSet rows = query.executeQuery()) {
        while (rows.next()) {
          columns.add(rows.getString(1));
        }
      }
    }
    if (columns.isEmpty()) {
      throw new IllegalStateException("no table " + table);
    }
    List<String> selected = new ArrayList<>();
    for (String column : columns) {
      selected.add(replaced.getOrDefault(column, '"' + column + '"'));
    }
    String quoted = String.join(", ", columns.stream().map(column -> '"' + column + '"').toList());
    try (PreparedStatement copy = connection.prepareStatement("INSERT INTO " + table + " (" + quoted + ") SELECT "
        + String.join(", ", selected) + " FROM " + table + " WHERE \"" + key + "\" = ?")) {
      int index = 1;
      for (int i = 0; i < replaced.size(); i++) {
        copy.setString(index++, to);
      }
      copy.setString(index, from);
      copy.executeUpdate();
    }
  }

  /** Analyzes both sides' tables, as autovacuum would soon after a load. */
  void analyze() throws SQLException {
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      statement.execute("ANALYZE " + librarySchema.table("sessions") + ", " + librarySchema.table("events") + ", "
          + baselineSchema.name() + ".ai_session, " + baselineSchema.name() + ".ai_session_event");
    }
  }

  @Override
  public void close() throws SQLException {
    try (PgSchema first = librarySchema; PgSchema second = baselineSchema) {
      store.close();
    }
  }
}
