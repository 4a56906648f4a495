package dev.sessionstore.springai;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.jdbc.TestDatabase;
import javax.sql.DataSource;

/** Connection pools on the test PostgreSQL of {@link TestDatabase}. */
final class Pools {

  private Pools() {
  }

  /** A pool of at most {@code size} connections on the test database, named after {@code name}. */
  static HikariDataSource postgres(String name, int size) {
    return pool(TestDatabase.get().adminDataSource(), name, size);
  }

  static HikariDataSource pool(DataSource connections, String name, int size) {
    HikariDataSource pool = new HikariDataSource();
    pool.setPoolName(name);
    pool.setDataSource(connections);
    pool.setMaximumPoolSize(size);
    pool.setMinimumIdle(0);
    return pool;
  }
}
