package dev.sessionstore.springai.session;

import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import org.springframework.ai.session.SessionRepository;

/** {@link SessionStoreSessionRepository} on a SQLite file of its own per test. */
class SqliteSessionRepositoryTest extends SessionRepositoryContract {

  private Path folder;
  private SessionStore store;

  @Override
  protected SessionRepository newRepository() {
    try {
      folder = Files.createTempDirectory("spring-ai-session-sqlite");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    store = JdbcSessionStore.builder().jdbcUrl("jdbc:sqlite:" + folder.resolve("sessions.db")).build();
    return SessionStoreSessionRepository.of(store);
  }

  @Override
  protected void cleanUp() {
    store.close();
    try (var files = Files.walk(folder)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
