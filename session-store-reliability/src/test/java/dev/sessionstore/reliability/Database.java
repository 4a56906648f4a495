package dev.sessionstore.reliability;

import com.zaxxer.hikari.HikariConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A database the reliability tests run stores on: PostgreSQL (owned by a test class, or the shared test database) or
 * a SQLite file; another backend is one more implementation. Scenarios reach it only through this interface, so each runs
 * unchanged on every backend it applies to.
 */
interface Database extends AutoCloseable {

  /** What the database is, for the test log: every test prints the database it used. */
  String description();

  /** The JDBC URL of the database, credentials included, as another process would connect. */
  String jdbcUrl();

  /** A pool configuration on this database named {@code poolName}; callers size and tune it further. */
  default HikariConfig poolConfig(String poolName) {
    HikariConfig config = new HikariConfig();
    config.setPoolName(poolName);
    config.setJdbcUrl(jdbcUrl());
    config.setMinimumIdle(0);
    return config;
  }

  /** A connection of its own, outside every pool and store, to inspect and disturb the database. */
  Connection adminConnection() throws SQLException;

  /** A schema name no other test of any JVM uses: {@code base}, the process id and a counter. */
  static String uniqueSchema(String base) {
    return base + "_" + ProcessHandle.current().pid() + "_" + Names.COUNTER.incrementAndGet();
  }

  @Override
  void close();

  /** The counter behind {@link #uniqueSchema}. */
  final class Names {
    private static final AtomicLong COUNTER = new AtomicLong();

    private Names() {
    }
  }
}
