package dev.sessionstore.springai;

import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** {@link SessionStoreChatMemoryRepository} on a SQLite file of its own per test. */
class SqliteChatMemoryRepositoryTest extends ChatMemoryRepositoryContract {

  private Path folder;

  @Override
  SessionStore openStore() {
    try {
      folder = Files.createTempDirectory("springai-sqlite");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return JdbcSessionStore.builder().jdbcUrl("jdbc:sqlite:" + folder.resolve("chat.db")).build();
  }

  @Override
  void cleanUp() {
    try (var files = Files.walk(folder)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  int concurrentRounds() {
    return 3;
  }
}
