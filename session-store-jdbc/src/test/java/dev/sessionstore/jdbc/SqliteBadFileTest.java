package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.StoreFailureException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.Function;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SQLite file that cannot hold a store fails the build at once (well within the 5 s connect timeout a pool would
 * wait), not retryable, with one message naming the file and what is wrong, and nothing logged at ERROR: a file that
 * is not a database, a store's file truncated or with damaged pages, a store in a read-only folder. Each kind is
 * built from a JDBC URL (the store's own pool) and from a plain data source.
 */
class SqliteBadFileTest {

  private static final Duration AT_ONCE = Duration.ofSeconds(2);

  @TempDir
  Path folder;

  @Test
  @DisplayName("A text file is not a SQLite database")
  void textFile() throws IOException {
    Path file = Files.writeString(folder.resolve("notes.db"), "hello, not a database\n");

    assertRefused(file, "it is not a SQLite database");
  }

  @Test
  @DisplayName("A file of foreign bytes is not a SQLite database")
  void foreignBytes() throws IOException {
    byte[] bytes = new byte[20_000];
    Arrays.fill(bytes, (byte) 0x5a);
    Path file = Files.write(folder.resolve("image.db"), bytes);

    assertRefused(file, "it is not a SQLite database");
  }

  @Test
  @DisplayName("A store's file cut in half is corrupt or truncated")
  void truncatedStore() throws IOException {
    Path file = store("truncated.db");
    byte[] whole = Files.readAllBytes(file);
    Files.write(file, Arrays.copyOf(whole, whole.length / 2));

    assertRefused(file, "it is corrupt or truncated");
  }

  @Test
  @DisplayName("A store's file with damaged pages after the header is corrupt or truncated")
  void corruptStore() throws IOException {
    Path file = store("corrupt.db");
    byte[] bytes = Files.readAllBytes(file);
    for (int i = 4096; i < bytes.length; i++) {
      bytes[i] = (byte) (bytes[i] * 7 + 13);
    }
    Files.write(file, bytes);

    assertRefused(file, "it is corrupt or truncated");
  }

  @Test
  @DisplayName("A store in a read-only folder cannot be opened for writing")
  void readOnlyFolder() throws Exception {
    Path file = store("store.db");
    try (ReadOnlyFolder readOnly = ReadOnlyFolder.of(folder)) {
      assertRefused(file, "it cannot be opened for writing");
    }
  }

  private Path store(String name) {
    Path file = folder.resolve(name);
    try (SessionStore store = JdbcSessionStore.builder().dataSource(SqliteConformanceTest.dataSource(file)).build()) {
      for (int i = 0; i < 50; i++) {
        store.sessions().save(SessionWrite.of("s-" + i).withMetadata("k", "v".repeat(200)));
      }
    }
    return file;
  }

  private static void assertRefused(Path file, String problem) {
    assertRefusedBy("jdbcUrl", file, problem,
        path -> JdbcSessionStore.builder().jdbcUrl("jdbc:sqlite:" + path).build());
    assertRefusedBy("dataSource", file, problem,
        path -> JdbcSessionStore.builder().dataSource(SqliteConformanceTest.dataSource(path)).build());
  }

  private static void assertRefusedBy(String how, Path file, String problem, Function<Path, SessionStore> build) {
    try (CapturedLog log = new CapturedLog()) {
      long start = System.nanoTime();

      Throwable thrown = catchThrowable(() -> build.apply(file).close());

      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertThat(thrown).as(how).isInstanceOfSatisfying(StoreFailureException.class, failure -> {
        assertThat(failure.isRetryable()).as("%s: retryable", how).isFalse();
        assertThat(failure.getMessage()).as(how)
            .startsWith("cannot use the SQLite file " + file + ": " + problem);
      });
      assertThat(took).as("%s: time to fail", how).isLessThan(AT_ONCE);
      assertThat(log.lines("ERROR")).as("%s: lines logged at ERROR", how).isEmpty();
    }
  }
}
