package consumer;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import consumer.boot.ChatMemoryApplication;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Spring Boot 3.5 / Spring AI 1.1 with spring.datasource.url set to the PostgreSQL test database (the one {@code
 * SESSION_STORE_TEST_JDBC_URL} names, else the machine's PostgreSQL on 127.0.0.1:5432): the messages land in
 * PostgreSQL, in a schema of their own, read back by a second run of the application; no SQLite file is written.
 */
class Boot3PostgresTest {

  private static final String DEFAULT_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

  @Test
  void chatMemoryKeptInPostgresAcrossARestart() {
    String url = System.getenv().getOrDefault("SESSION_STORE_TEST_JDBC_URL", DEFAULT_URL);

    String store = ChatMemoryApplication.historyKeptAcrossRestart("--spring.datasource.url=" + url,
        "--session-store.schema=boot3_postgresql_consumer");

    assertTrue(store.contains("jdbc:postgresql://"), store);
    assertTrue(store.contains("boot3_postgresql_consumer"), store);
    assertFalse(Files.exists(Path.of("sessions.db")), "a SQLite file was written beside " + url);
  }
}
