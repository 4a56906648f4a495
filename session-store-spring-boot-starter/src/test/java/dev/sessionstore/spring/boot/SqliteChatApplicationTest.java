package dev.sessionstore.spring.boot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The chat application without a {@code DataSource}: the starter's SQLite file. */
@SpringBootTest(classes = ChatApplication.class)
@DirtiesContext
class SqliteChatApplicationTest extends ChatApplicationContract {

  private static final Path FOLDER = folder();
  private static final Map<String, Object> PROPERTIES = Map.of(
      "session-store.sqlite.path", FOLDER.resolve("sessions.db").toString(),
      // Either line's DataSource auto-configuration (Boot 4 moved it); Boot ignores a name not on the class path.
      "spring.autoconfigure.exclude", "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration,"
          + "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration");

  private static Path folder() {
    try {
      return Files.createTempDirectory("chatapp-sqlite");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @AfterAll
  static void deleteFolder() throws IOException {
    try (var files = Files.walk(FOLDER)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) {
    PROPERTIES.forEach((key, value) -> registry.add(key, () -> value));
  }

  @Override
  Map<String, Object> properties() {
    return PROPERTIES;
  }

  @Override
  Class<?>[] sources() {
    return new Class<?>[] {ChatApplication.class};
  }
}
