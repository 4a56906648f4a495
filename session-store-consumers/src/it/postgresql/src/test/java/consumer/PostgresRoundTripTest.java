package consumer;

import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import org.junit.jupiter.api.Test;

/**
 * session-store-jdbc with the PostgreSQL driver alone: the round trip on the test database, the one named by
 * {@code SESSION_STORE_TEST_JDBC_URL} (as the project's own JDBC tests take it), else the machine's PostgreSQL on
 * 127.0.0.1:5432. The tables go to a schema of their own.
 */
class PostgresRoundTripTest {

  private static final String DEFAULT_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

  @Test
  void createAppendReadBack() {
    String url = System.getenv().getOrDefault("SESSION_STORE_TEST_JDBC_URL", DEFAULT_URL);
    try (SessionStore store = JdbcSessionStore.builder().jdbcUrl(url).schema("consumer_project").build()) {
      RoundTrip.check(store);
    }
  }
}
