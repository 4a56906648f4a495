package dev.sessionstore.langchain4j;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import dev.sessionstore.jdbc.TestDatabase;

/** {@link SessionStoreChatMemoryStore} on PostgreSQL, each test in a schema of its own. */
class PostgresChatMemoryStoreTest extends ChatMemoryStoreContract {

  private HikariDataSource pool;
  private String schema;

  @Override
  SessionStore openStore() {
    schema = TestDatabase.uniqueName("langchain4j");
    pool = Pools.postgres(schema, 20);
    return JdbcSessionStore.builder().dataSource(pool).schema(schema).build();
  }

  @Override
  SessionStore reopenStore() {
    return JdbcSessionStore.builder().dataSource(pool).schema(schema).build();
  }

  @Override
  void cleanUp() {
    pool.close();
    TestDatabase.get().execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
  }

  @Override
  int concurrentRounds() {
    return 5;
  }
}
