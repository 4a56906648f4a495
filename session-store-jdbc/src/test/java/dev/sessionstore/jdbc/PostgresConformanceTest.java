package dev.sessionstore.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * Certifies the PostgreSQL store with the whole conformance kit, on one shared pool. Every store the kit asks for
 * gets a schema no other open store uses. Schemas are created by the first store built on them and emptied after
 * each test for the next one, because creating and dropping a schema per test would cost more than the tests;
 * all are dropped at the end.
 */
class PostgresConformanceTest extends SessionStoreConformance {

  private static HikariDataSource pool;
  private static final List<String> created = new ArrayList<>();
  private static final Deque<String> emptied = new ArrayDeque<>();
  private final List<String> inUse = new ArrayList<>();
  private final List<SessionStore> opened = new ArrayList<>();

  @BeforeAll
  static void openPool() {
    pool = TestDatabase.get().pool("session-store-conformance", 24);
  }

  @AfterAll
  static void dropSchemas() throws SQLException {
    try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
      for (String schema : created) {
        statement.execute("DROP SCHEMA \"" + schema + "\" CASCADE");
      }
    } finally {
      pool.close();
    }
  }

  @Override
  protected SessionStore newStore(Clock clock) {
    String schema;
    synchronized (created) {
      schema = emptied.poll();
      if (schema == null) {
        schema = TestDatabase.uniqueName("kit");
        created.add(schema);
      }
      inUse.add(schema);
    }
    SessionStore store = JdbcSessionStore.builder()
        .dataSource(pool)
        .schema(schema)
        .clock(clock)
        .modelCallAudit(true)
        .deadlineSweepInterval(Duration.ofMillis(200))
        .build();
    synchronized (created) {
      opened.add(store);
    }
    return store;
  }

  /**
   * Runs after the kit closed the test's store; closes any other store the test left open, so that no sweeper
   * outlives the test, then empties the schemas: deleting the sessions cascades to everything they own.
   */
  @AfterEach
  void emptySchemas() throws SQLException {
    synchronized (created) {
      opened.forEach(SessionStore::close);
      opened.clear();
      try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
        for (String schema : inUse) {
          statement.execute("DELETE FROM \"" + schema + "\".session_store_sessions");
          statement.execute("DELETE FROM \"" + schema + "\".session_store_global_checkpoints");
          emptied.add(schema);
        }
      }
      inUse.clear();
    }
  }
}
