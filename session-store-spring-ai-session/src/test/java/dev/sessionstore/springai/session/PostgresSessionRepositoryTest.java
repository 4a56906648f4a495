package dev.sessionstore.springai.session;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.Capability;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.UnsupportedCapabilityException;
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

  /**
   * Whether the JDBC adapter answers searches. While its search read is being built it declares {@link Capability#SEARCH}
   * (all capabilities) but refuses every search, and then the repository must refuse keywords as clearly; once it
   * searches, the keyword tests run on it. Whether a declared capability works is the conformance kit's test.
   */
  @Override
  protected boolean searchesKeywords() {
    try {
      store.search().find(SearchQuery.of("probe"));
      return store.supports(Capability.SEARCH);
    } catch (UnsupportedCapabilityException e) {
      return false;
    }
  }
}
