package dev.sessionstore.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.SessionStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;

/**
 * A schema of the {@link TestDatabase} for one test, and the pools and stores a test opens on it. Stores build with
 * {@code createSchema(true)} unless told otherwise; closing closes them all and drops the schema.
 */
final class TestSchema implements AutoCloseable {

  private final String name = TestDatabase.uniqueName("t");
  /** How to close what the test opened, in opening order. */
  private final List<Runnable> closers = Collections.synchronizedList(new ArrayList<>());
  private final AtomicInteger pools = new AtomicInteger();

  String name() {
    return name;
  }

  /** A new pool of its own, as an independent process would have. */
  HikariDataSource pool(int maximumSize) {
    HikariDataSource pool = TestDatabase.get().pool(name + "-" + pools.incrementAndGet(), maximumSize);
    closers.add(pool::close);
    return pool;
  }

  /** A store on this schema with a pool of its own, configured further by {@code configure}. */
  SessionStore store(UnaryOperator<JdbcSessionStore.Builder> configure) {
    return store(pool(10), configure);
  }

  /** A store on this schema and {@code dataSource}, configured further by {@code configure}. */
  SessionStore store(DataSource dataSource, UnaryOperator<JdbcSessionStore.Builder> configure) {
    SessionStore store = configure.apply(JdbcSessionStore.builder().dataSource(dataSource).schema(name)).build();
    closers.add(store::close);
    return store;
  }

  /** The first column of the first row of a query run as the admin user, or {@code null}. */
  Object queryValue(String sql, Object... parameters) {
    try (Connection connection = TestDatabase.get().adminDataSource().getConnection();
         PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        statement.setObject(i + 1, parameters[i]);
      }
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next() ? rows.getObject(1) : null;
      }
    } catch (SQLException e) {
      throw new IllegalStateException("test query failed: " + sql, e);
    }
  }

  @Override
  public void close() {
    List<Runnable> inReverse = new ArrayList<>(closers);
    Collections.reverse(inReverse);
    inReverse.forEach(Runnable::run);
    TestDatabase.get().execute("DROP SCHEMA IF EXISTS \"" + name + "\" CASCADE");
  }
}
