package dev.sessionstore.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.RetentionPolicy;
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
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * Certifies the PostgreSQL store with the whole conformance kit, on one shared pool. Every store the kit asks for
 * gets a schema no other open store uses. Schemas are created by the first store built on them and emptied after
 * each test for the next one, because creating and dropping a schema per test would cost more than the tests;
 * all are dropped at the end.
 *
 * <p>A peer the kit asks for ({@link #newPeerStore}) is a second store on its first's schema, built through a pool
 * of its own as another process would: its own connections (its own {@code LISTEN} among them), sweeper and
 * waiters, the default poll interval, nothing shared with the first but the database.
 */
class PostgresConformanceTest extends SessionStoreConformance {

  private static HikariDataSource pool;
  /** The connections of every peer: never lent to a store from {@link #newStore}. */
  private static HikariDataSource peerPool;
  private static final List<String> created = new ArrayList<>();
  private static final Deque<String> emptied = new ArrayDeque<>();
  private final List<String> inUse = new ArrayList<>();
  private final List<SessionStore> opened = new ArrayList<>();
  private final Map<SessionStore, String> schemaOf = new IdentityHashMap<>();

  @BeforeAll
  static void openPool() {
    pool = TestDatabase.get().pool("session-store-conformance", 24);
    peerPool = TestDatabase.get().pool("session-store-conformance-peer", 24);
  }

  @AfterAll
  static void dropSchemas() throws SQLException {
    try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
      for (String schema : created) {
        statement.execute("DROP SCHEMA \"" + schema + "\" CASCADE");
      }
      created.clear();
      emptied.clear();
    } finally {
      pool.close();
      peerPool.close();
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
    SessionStore store = build(pool, schema, clock);
    synchronized (created) {
      opened.add(store);
      schemaOf.put(store, schema);
    }
    return store;
  }

  @Override
  protected SessionStore newPeerStore(SessionStore first, Clock clock) {
    String schema;
    synchronized (created) {
      schema = schemaOf.get(first);
    }
    if (schema == null) {
      throw new IllegalArgumentException("not a store of this test: " + first);
    }
    SessionStore peer = build(peerPool, schema, clock);
    synchronized (created) {
      opened.add(peer);
    }
    return peer;
  }

  /**
   * A store on a schema of its own (claimed like {@link #newStore} claims one, emptied after the test) that applies
   * {@code policy} every {@code interval}.
   */
  @Override
  protected SessionStore newRetainingStore(Clock clock, RetentionPolicy policy, Duration interval) {
    SessionStore claim = newStore(clock);
    String schema;
    synchronized (created) {
      schema = schemaOf.get(claim);
    }
    claim.close();
    SessionStore retaining = JdbcSessionStore.builder()
        .dataSource(pool)
        .schema(schema)
        .clock(clock)
        .modelCallAudit(true)
        .retention(policy, interval)
        .build();
    synchronized (created) {
      opened.add(retaining);
    }
    return retaining;
  }

  /** A store on {@code schema} through {@code dataSource}, as the kit needs it (audit on, frequent sweeps). */
  SessionStore build(HikariDataSource dataSource, String schema, Clock clock) {
    return JdbcSessionStore.builder()
        .dataSource(dataSource)
        .schema(schema)
        .clock(clock)
        .modelCallAudit(true)
        .deadlineSweepInterval(Duration.ofMillis(200))
        .build();
  }

  /**
   * Runs after the kit closed the test's store; closes any other store the test left open, so that no sweeper
   * outlives the test, then empties the schemas: deleting the sessions cascades to everything they own but their
   * events, which have no foreign key.
   */
  @AfterEach
  void emptySchemas() throws SQLException {
    synchronized (created) {
      opened.forEach(SessionStore::close);
      opened.clear();
      schemaOf.clear();
      try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
        for (String schema : inUse) {
          statement.execute("DELETE FROM \"" + schema + "\".session_store_sessions");
          statement.execute("DELETE FROM \"" + schema + "\".session_store_events");
          statement.execute("DELETE FROM \"" + schema + "\".session_store_global_checkpoints");
          statement.execute("DELETE FROM \"" + schema + "\".session_store_writer_claims");
          emptied.add(schema);
        }
      }
      inUse.clear();
    }
  }
}
