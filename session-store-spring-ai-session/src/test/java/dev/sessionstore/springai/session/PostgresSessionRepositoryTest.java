package dev.sessionstore.springai.session;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import dev.sessionstore.jdbc.TestDatabase;
import org.springframework.ai.session.SessionRepository;

/** {@link SessionStoreSessionRepository} on PostgreSQL, each test in a schema of its own. */
class PostgresSessionRepositoryTest extends SessionRepositoryContract {

  private HikariDataSource pool;
  private String schema;
  private SessionStore store;

  @Override
  protected SessionRepository newRepository() {
    schema = TestDatabase.uniqueName("springaisession");
    pool = new HikariDataSource();
    pool.setPoolName(schema);
    pool.setDataSource(TestDatabase.get().adminDataSource());
    pool.setMaximumPoolSize(20);
    pool.setMinimumIdle(0);
    store = JdbcSessionStore.builder().dataSource(pool).schema(schema).build();
    return SessionStoreSessionRepository.of(store);
  }

  @Override
  protected void cleanUp() {
    store.close();
    pool.close();
    TestDatabase.get().execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
  }
}
