package dev.sessionstore.springai.session;

import dev.sessionstore.Capability;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.UnsupportedCapabilityException;
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
