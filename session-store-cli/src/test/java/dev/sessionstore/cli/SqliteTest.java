package dev.sessionstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The default store, the SQLite file {@code ./sessions.db}, and the SQLite URL rules. */
class SqliteTest {

  @TempDir
  Path folder;

  @Test
  @DisplayName("Without a store option the tool writes and reads ./sessions.db in the working folder")
  void defaultFile() throws Exception {
    Cli.Result demo = ToolProcess.run(folder, "demo");
    Cli.Result list = ToolProcess.run(folder, "sessions", "list", "--json");
    Cli.Result events = ToolProcess.run(folder, "events", "Lisbon weekend", "--last", "1", "--json");

    assertThat(demo.exitCode()).as(demo.err()).isZero();
    assertThat(demo.out()).startsWith("session-store demo: one agent conversation on jdbc:sqlite:sessions.db");
    assertThat(demo.err()).isEmpty();
    assertThat(folder.resolve("sessions.db")).isRegularFile();
    assertThat(Json.parse(list.out()).get("sessions")).extracting(node -> node.get("id").asText())
        .containsExactly("trip-lisbon", "trip-lisbon-rainy");
    assertThat(Json.parse(events.out()).get("events").get(0).get("id").asText()).isEqualTo("ev-08");
  }

  @Test
  @DisplayName("The demo in a SQLite file -> export -> PostgreSQL -> export: identical")
  void demoFromSqliteThroughPostgres() throws Exception {
    String url = "jdbc:sqlite:" + folder.resolve("demo.db");
    Path fromSqlite = folder.resolve("from-sqlite.jsonl");
    Path fromPostgres = folder.resolve("from-postgres.jsonl");
    assertThat(Cli.run("demo", "--jdbc-url", url).exitCode()).isZero();
    assertThat(Cli.run("export", "-o", fromSqlite.toString(), "--jdbc-url", url).exitCode()).isZero();

    try (PostgresSchema schema = new PostgresSchema()) {
      Cli.Result imported = Cli.run(schema.with("import", fromSqlite.toString()));
      Cli.Result exported = Cli.run(schema.with("export", "-o", fromPostgres.toString()));

      assertThat(imported.exitCode()).as(imported.err()).isZero();
      assertThat(exported.exitCode()).as(exported.err()).isZero();
      assertThat(Files.readAllBytes(fromPostgres)).isEqualTo(Files.readAllBytes(fromSqlite));
    }
  }

  @Test
  @DisplayName("A read of a SQLite file that does not exist: exit 6, and no file is created")
  void missingFile() {
    Path file = folder.resolve("none.db");

    FailureTest.assertFailure(Cli.run("sessions", "list", "--jdbc-url", "jdbc:sqlite:" + file), ExitCode.NO_SCHEMA,
        "session-store: no SQLite store at " + file);
    assertThat(file).doesNotExist();
  }

  @Test
  @DisplayName("A SQLite file in a missing folder: exit 8; --schema with SQLite: exit 2; an in-memory SQLite URL: exit 4")
  void badSqliteTargets() {
    Path file = folder.resolve("no-folder").resolve("x.db");

    FailureTest.assertFailure(Cli.run("migrate", "--jdbc-url", "jdbc:sqlite:" + file), ExitCode.FILE_ERROR,
        "session-store: cannot create " + file);
    FailureTest.assertFailure(Cli.run("migrate", "--jdbc-url", "jdbc:sqlite:" + folder.resolve("y.db"), "--schema",
        "agents"), ExitCode.USAGE, "session-store: --schema applies to PostgreSQL");
    assertThat(Files.exists(folder.resolve("y.db"))).isFalse();
    FailureTest.assertFailure(Cli.run("migrate", "--jdbc-url", "jdbc:sqlite::memory:"), ExitCode.BAD_URL,
        "session-store: unsupported SQLite URL: jdbc:sqlite::memory:");
  }
}
