package dev.sessionstore.benchmarks.sidebyside;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.SessionStore;
import dev.sessionstore.benchmarks.Events;
import dev.sessionstore.benchmarks.StoreKind;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A fresh schema of its own on the measured PostgreSQL, holding the library's tables, with connection pools of
 * {@linkplain #pool() identical settings} for every side that uses it. Closing it drops the schema and closes the
 * pools. Schemas carry the prefix {@value #PREFIX}; a killed run can leave one behind.
 */
final class PgSchema implements AutoCloseable {

  static final String PREFIX = "session_store_sbs_";
  /** Enough for 16 writers plus the store's listening and notifying connections. */
  static final int POOL_SIZE = 20;
  private static final int MIN_IDLE = 2;

  private final String url;
  private final String name;
  private final List<HikariDataSource> pools = new ArrayList<>();

  private PgSchema(String url, String name) {
    this.url = url;
    this.name = name;
  }

  /** Creates an empty schema named after {@code purpose} and a random suffix. */
  static PgSchema create(String url, String purpose) throws SQLException {
    PgSchema schema = new PgSchema(url,
        PREFIX + purpose + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8));
    schema.execute("CREATE SCHEMA " + schema.name);
    return schema;
  }

  /** Creates a schema as {@link #create} does, with the library's tables in it. */
  static PgSchema withTables(String url, String purpose) throws SQLException {
    PgSchema schema = create(url, purpose);
    schema.openStore().close();
    return schema;
  }

  String name() {
    return name;
  }

  /** The qualified name of the library's table {@code table} ({@code events}, {@code sessions}, …). */
  String table(String table) {
    return name + "." + StoreKind.TABLE_PREFIX + table;
  }

  /**
   * A new HikariCP pool on the database, closed with the schema. Every pool has the same settings: at most
   * {@value #POOL_SIZE} connections, {@value #MIN_IDLE} kept idle, autocommit on, the schema on the search path.
   */
  HikariDataSource pool() {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(POOL_SIZE);
    config.setMinimumIdle(MIN_IDLE);
    config.setSchema(name);
    config.setPoolName(name + "-" + pools.size());
    HikariDataSource pool = new HikariDataSource(config);
    pools.add(pool);
    return pool;
  }

  /** A library store on this schema, through a pool of its own. */
  SessionStore openStore() {
    return StoreKind.postgres(pool(), name);
  }

  /**
   * Creates session {@code sessionId} with {@code count} events, written server-side in one transaction: event
   * {@code i} (from 0) has seq {@code i + 1}, id {@code e-<i>}, the type {@link Events#type} gives and a chat-turn
   * payload; then analyzes the tables, as autovacuum would soon after a load.
   */
  void fill(String sessionId, int count) throws SQLException {
    try (Connection connection = connect()) {
      connection.setAutoCommit(false);
      try (PreparedStatement session = connection.prepareStatement("INSERT INTO " + table("sessions")
              + " (id, status, settings, metadata, last_seq, created_at, updated_at)"
              + " VALUES (?, 'active', '{}', '{}', ?, now(), now())");
          PreparedStatement events = connection.prepareStatement("INSERT INTO " + table("events")
              + " (session_id, seq, id, type, payload, ts)"
              + " SELECT ?, g + 1, 'e-' || g, CASE WHEN g % 2 = 0 THEN ? ELSE ? END,"
              + " json_build_object('turn', g, 'text', ?::text), now()"
              + " FROM generate_series(0, ? - 1) AS g")) {
        session.setString(1, sessionId);
        session.setLong(2, count);
        session.executeUpdate();
        events.setString(1, sessionId);
        events.setString(2, Events.type(0));
        events.setString(3, Events.type(1));
        events.setString(4, Events.TEXT);
        events.setInt(5, count);
        events.executeUpdate();
      }
      connection.commit();
    }
    execute("ANALYZE " + table("sessions") + ", " + table("events"));
  }

  /**
   * Whether the log of {@code sessionId} is gapless with {@code appended} events: seqs 1 to {@code appended}, each
   * once, and the session's head at the last.
   */
  boolean gapless(String sessionId, long appended) throws SQLException {
    try (Connection connection = connect();
        PreparedStatement check = connection.prepareStatement("SELECT count(*), count(DISTINCT seq),"
            + " coalesce(min(seq), 1), coalesce(max(seq), 0),"
            + " (SELECT last_seq FROM " + table("sessions") + " WHERE id = ?)"
            + " FROM " + table("events") + " WHERE session_id = ?")) {
      check.setString(1, sessionId);
      check.setString(2, sessionId);
      try (ResultSet row = check.executeQuery()) {
        row.next();
        return row.getLong(1) == appended && row.getLong(2) == appended && row.getLong(3) == 1
            && row.getLong(4) == appended && row.getLong(5) == appended;
      }
    }
  }

  /** Analyzes every table of the schema, as autovacuum would soon after a load. */
  void analyze() throws SQLException {
    List<String> tables = new ArrayList<>();
    try (Connection connection = connect();
        PreparedStatement query = connection.prepareStatement(
            "SELECT quote_ident(tablename) FROM pg_tables WHERE schemaname = ?")) {
      query.setString(1, name);
      try (ResultSet rows = query.executeQuery()) {
        while (rows.next()) {
          tables.add(name + "." + rows.getString(1));
        }
      }
    }
    if (!tables.isEmpty()) {
      execute("ANALYZE " + String.join(", ", tables));
    }
  }

  @Override
  public void close() throws SQLException {
    try {
      execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
    } finally {
      pools.forEach(HikariDataSource::close);
    }
  }

  /** Runs {@code sql} on the database through a connection of its own, outside the pools. */
  void execute(String sql) throws SQLException {
    try (Connection connection = connect(); Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  /** A connection outside the pools, for setting up and checking, never for measured calls. */
  private Connection connect() throws SQLException {
    return DriverManager.getConnection(url);
  }
}
