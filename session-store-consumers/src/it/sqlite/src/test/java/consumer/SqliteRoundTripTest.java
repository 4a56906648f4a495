package consumer;

import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** session-store-jdbc with the SQLite driver alone: the round trip on a new file under target/. */
class SqliteRoundTripTest {

  @Test
  void createAppendReadBack() throws Exception {
    Path file = Path.of("target", "consumer.db");
    Files.deleteIfExists(file);
    try (SessionStore store = JdbcSessionStore.builder().jdbcUrl("jdbc:sqlite:" + file).build()) {
      RoundTrip.check(store);
    }
  }
}
