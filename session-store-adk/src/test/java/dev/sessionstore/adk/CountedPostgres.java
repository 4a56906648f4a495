package dev.sessionstore.adk;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import dev.sessionstore.jdbc.StatementCounter;
import dev.sessionstore.jdbc.TestDatabase;
import java.time.Duration;

/**
 * A JDBC store on the test PostgreSQL, in a schema of its own, whose statements are counted: no notifications and no
 * deadline sweeps, so every counted statement is one a call ran. Closing closes the store and its pool and drops the
 * schema.
 */
final class CountedPostgres implements AutoCloseable {

  final StatementCounter counter = new StatementCounter();
  final SessionStore store;
  private final String schema;
  private final HikariDataSource pool = new HikariDataSource();

  CountedPostgres(String name) {
    schema = TestDatabase.uniqueName(name);
    pool.setDataSource(TestDatabase.get().adminDataSource());
    pool.setMaximumPoolSize(4);
    store = JdbcSessionStore.builder().dataSource(counter.wrap(pool)).schema(schema).notifications(false)
        .deadlineSweepInterval(Duration.ofHours(1)).build();
  }

  @Override
  public void close() {
    try {
      store.close();
      pool.close();
    } finally {
      TestDatabase.get().execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
  }
}
