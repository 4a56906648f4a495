package consumer;

import static org.junit.jupiter.api.Assertions.assertTrue;

import consumer.boot.ChatMemoryApplication;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Spring Boot 4.0 / Spring AI 2.0, the starter alone and no property: Spring AI's chat memory is kept in the SQLite file
 * ./sessions.db and outlives a restart of the application.
 */
class Boot4SqliteDefaultTest {

  @Test
  void chatMemoryKeptInTheDefaultSqliteFileAcrossARestart() {
    String store = ChatMemoryApplication.historyKeptAcrossRestart();

    assertTrue(store.contains("jdbc:sqlite:./sessions.db"), store);
    assertTrue(Files.isRegularFile(Path.of("sessions.db")), "no ./sessions.db in " + Path.of("").toAbsolutePath());
  }
}
