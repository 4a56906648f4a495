package dev.sessionstore.langchain4j;

import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;

/** {@link SessionStoreChatMemoryStore} on a SQLite file of its own per test. */
class SqliteChatMemoryStoreTest extends ChatMemoryStoreContract {

  private Path folder;

  @Override
  SessionStore openStore() {
    try {
      folder = Files.createTempDirectory("langchain4j-sqlite");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return reopenStore();
  }

  @Override
  SessionStore reopenStore() {
    return JdbcSessionStore.builder().jdbcUrl("jdbc:sqlite:" + folder.resolve("chat.db")).build();
  }

  @Override
  void cleanUp() {
    try (var files = Files.walk(folder)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  int concurrentRounds() {
    return 3;
  }
}
