package dev.sessionstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.jdbc.ReadOnlyFolder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SQLite file that cannot hold a store is named for what it is, with its own exit code, by a command that reads and
 * by {@code migrate} alike (never "run migrate"); a valid store in a read-only folder opens for reading, and a command
 * that writes to it is refused as read-only.
 */
class BadSqliteFileTest {

  @TempDir
  Path folder;

  @Test
  @DisplayName("A file that is not a database: exit 10, for reads and for migrate")
  void notADatabase() throws IOException {
    Path file = Files.writeString(folder.resolve("notes.db"), "hello, not a database\n");
    String message = "session-store: cannot use the SQLite file " + file + ": it is not a SQLite database";

    FailureTest.assertFailure(run("sessions", "list", file), ExitCode.NOT_A_DATABASE, message);
    FailureTest.assertFailure(run("migrate", file), ExitCode.NOT_A_DATABASE, message);
  }

  @Test
  @DisplayName("A store cut in half: exit 11, for reads and for migrate")
  void truncatedStore() throws IOException {
    Path file = demo("truncated.db");
    byte[] whole = Files.readAllBytes(file);
    Files.write(file, Arrays.copyOf(whole, whole.length / 2));
    String message = "session-store: cannot use the SQLite file " + file + ": it is corrupt or truncated";

    FailureTest.assertFailure(run("stats", file), ExitCode.DAMAGED_DATABASE, message);
    FailureTest.assertFailure(run("migrate", file), ExitCode.DAMAGED_DATABASE, message);
  }

  @Test
  @DisplayName("A store with damaged pages: exit 11, for reads and for migrate")
  void corruptStore() throws IOException {
    Path file = demo("corrupt.db");
    byte[] bytes = Files.readAllBytes(file);
    for (int i = 4096; i < bytes.length; i++) {
      bytes[i] = (byte) (bytes[i] * 7 + 13);
    }
    Files.write(file, bytes);
    String message = "session-store: cannot use the SQLite file " + file + ": it is corrupt or truncated";

    FailureTest.assertFailure(run("sessions", "list", file), ExitCode.DAMAGED_DATABASE, message);
    FailureTest.assertFailure(run("migrate", file), ExitCode.DAMAGED_DATABASE, message);
  }

  @Test
  @DisplayName("A store in a read-only folder: reads and export work, migrate and import exit 12")
  void readOnlyFolder() throws Exception {
    Path file = demo("store.db");
    Cli.Result writable = run("sessions", "list", file);
    Path exported = Files.createTempFile("read-only-store", ".jsonl");
    try (ReadOnlyFolder readOnly = ReadOnlyFolder.of(folder)) {

      Cli.Result listed = run("sessions", "list", file);
      assertThat(listed.exitCode()).as(listed.err()).isZero();
      assertThat(listed.out()).isEqualTo(writable.out());
      Cli.Result export = Cli.run("export", "--output", exported.toString(), "--jdbc-url", "jdbc:sqlite:" + file);
      assertThat(export.exitCode()).as(export.err()).isZero();
      assertThat(Files.readAllLines(exported)).hasSizeGreaterThan(2);
      String message = "session-store: cannot use the SQLite file " + file + ": it cannot be opened for writing";
      FailureTest.assertFailure(run("migrate", file), ExitCode.READ_ONLY, message);
      FailureTest.assertFailure(Cli.run("import", exported.toString(), "--jdbc-url", "jdbc:sqlite:" + file),
          ExitCode.READ_ONLY, message);
    } finally {
      Files.delete(exported);
    }
  }

  private Path demo(String name) {
    Path file = folder.resolve(name);
    Cli.Result demo = Cli.run("demo", "--jdbc-url", "jdbc:sqlite:" + file);
    assertThat(demo.exitCode()).as(demo.err()).isZero();
    return file;
  }

  private static Cli.Result run(String command, Path file) {
    return Cli.run(command, "--jdbc-url", "jdbc:sqlite:" + file);
  }

  private static Cli.Result run(String command, String subcommand, Path file) {
    return Cli.run(command, subcommand, "--jdbc-url", "jdbc:sqlite:" + file);
  }
}
