package dev.sessionstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.jdbc.JdbcSessionStore;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/**
 * What a newcomer met on a first run of the tool, each a defect once: UUID event ids (every Spring AI conversation)
 * breaking the events table, metadata printed as a Java map, parser exceptions on standard error, the export's
 * temporary file named in an error, a folder given to import, {@code help <command>}, and exit code 130 missing from
 * the list.
 */
class NewcomerPapercutsTest {

  @TempDir
  Path folder;

  private String sqlite(String name) {
    return "jdbc:sqlite:" + folder.resolve(name);
  }

  private SessionStore open(String url) {
    SQLiteDataSource dataSource = new SQLiteDataSource();
    dataSource.setUrl(url);
    return JdbcSessionStore.builder().dataSource(dataSource).build();
  }

  @Test
  @DisplayName("Events with 36-character ids print whole, every column aligned under its header")
  void uuidIdsStayAligned() {
    String url = sqlite("uuids.db");
    List<String> ids = List.of(UUID.randomUUID().toString(), UUID.randomUUID().toString(), "short");
    try (SessionStore store = open(url)) {
      ids.forEach(id -> store.events().append("chat", NewEvent.of("user_message").withId(id)
          .withAgentId("an-agent-with-a-long-name")));
    }

    Cli.Result events = Cli.run("events", "chat", "--jdbc-url", url);

    assertThat(events.exitCode()).as(events.err()).isZero();
    List<String> lines = events.out().lines().toList();
    assertThat(lines).hasSize(4);
    int typeColumn = lines.get(0).indexOf("TYPE");
    int agentColumn = lines.get(0).indexOf("AGENT");
    for (int i = 0; i < ids.size(); i++) {
      String line = lines.get(i + 1);
      assertThat(line).as(line).contains(" " + ids.get(i) + " ");
      assertThat(line.substring(typeColumn)).as(line).startsWith("user_message ");
      assertThat(line.substring(agentColumn)).as(line).startsWith("an-agent-with-a-long-name ");
    }
  }

  @Test
  @DisplayName("sessions show prints metadata as JSON, as the settings line and --json do")
  void metadataAsJson() {
    String url = sqlite("metadata.db");
    try (SessionStore store = open(url)) {
      store.sessions().save(SessionWrite.of("s").withMetadata(Map.of("user", "ana", "channel", "cli")));
    }

    Cli.Result show = Cli.run("sessions", "show", "s", "--jdbc-url", url);

    assertThat(show.exitCode()).as(show.err()).isZero();
    assertThat(show.out()).contains("metadata:          {\"channel\":\"cli\",\"user\":\"ana\"}\n");
  }

  @Test
  @DisplayName("A bad --since or age: exit 2 with the value and the accepted forms, no exception class or parser text")
  void badTimesAndAges() {
    Cli.Result since = Cli.run("events", "s", "--memory", "--since", "yesterday");
    Cli.Result age = Cli.run("retention", "--memory", "--idle-for", "3x");
    Cli.Result notANumber = Cli.run("retention", "--memory", "--idle-for", "xd");
    Cli.Result badIso = Cli.run("retention", "--memory", "--model-calls-older-than", "P3X");

    FailureTest.assertUsage(since, "session-store: Invalid value for option '--since': 'yesterday' is not an instant:"
        + " give one in ISO-8601 UTC, such as 2025-01-31T12:00:00Z");
    for (Cli.Result result : List.of(age, notANumber, badIso)) {
      FailureTest.assertUsage(result, "session-store: Invalid value for option '--");
      assertThat(result.err()).contains("is not an age: give a whole number with d, h, m or s (30d, 12h, 90m, 45s)"
          + " or ISO-8601 (PT12H)");
    }
    for (Cli.Result result : List.of(since, age, notANumber, badIso)) {
      assertThat(result.err()).doesNotContain("Exception", "java.");
    }
  }

  @Test
  @DisplayName("export -o into a missing folder: exit 8 naming the folder, never the temporary file")
  void exportIntoAMissingFolder() {
    Path target = folder.resolve("no-such-folder").resolve("out.jsonl");

    Cli.Result export = Cli.run("export", "-o", target.toString(), "--memory");

    FailureTest.assertFailure(export, ExitCode.FILE_ERROR, "session-store: cannot write " + target
        + ": no such folder: " + target.getParent());
    assertThat(export.err()).doesNotContain(".partial", "Exception");
  }

  @Test
  @DisplayName("export -o onto a folder: exit 8, it is a folder; the folder keeps no temporary file")
  void exportOntoAFolder() throws Exception {
    Path target = Files.createDirectory(folder.resolve("a-folder"));

    Cli.Result export = Cli.run("export", "-o", target.toString(), "--memory");

    FailureTest.assertFailure(export, ExitCode.FILE_ERROR, "session-store: cannot write " + target + ": it is a folder");
    try (var left = Files.list(folder)) {
      assertThat(left.map(path -> path.getFileName().toString())).containsExactly("a-folder");
    }
  }

  @Test
  @DisplayName("import of a folder: exit 8 (a file that cannot be read), not 7 (a corrupt export)")
  void importAFolder() throws Exception {
    Path given = Files.createDirectory(folder.resolve("exports"));

    FailureTest.assertFailure(Cli.run("import", given.toString(), "--memory"), ExitCode.FILE_ERROR,
        "session-store: cannot read " + given + ": it is a folder");
  }

  @Test
  @DisplayName("help <command> prints that command's usage and exits 0; the exit codes list 130 (Ctrl-C)")
  void helpCommandAndExitCodes() {
    Cli.Result help = Cli.run("help", "events");
    Cli.Result nested = Cli.run("help");
    Cli.Result root = Cli.run("--help");

    assertThat(help.exitCode()).as(help.err()).isZero();
    assertThat(help.out()).startsWith("Usage: session-store events [");
    assertThat(nested.exitCode()).isZero();
    assertThat(nested.out()).startsWith("Usage: session-store [");
    assertThat(root.out()).contains("  130   stopped by Ctrl-C (how events --follow ends)");
  }

  @Test
  @DisplayName("A store's failure is printed once prefixed, not 'session-store: session-store:'")
  void oneProgramNamePerLine() throws Exception {
    try (PostgresSchema schema = new PostgresSchema()) {
      assertThat(Cli.run(schema.with("demo")).exitCode()).isZero();
      try (Connection connection = DriverManager.getConnection(schema.url());
           Statement statement = connection.createStatement()) {
        statement.execute("DROP TABLE " + schema.name() + ".session_store_events CASCADE");
      }

      Cli.Result events = Cli.run(schema.with("events", "trip-lisbon"));

      // the store reads the events table when it opens (it indexes events stored before schema version 5), so the
      // missing table is reported there, with the fix (migrate)
      FailureTest.assertFailure(events, ExitCode.NO_SCHEMA, "session-store: ");
      assertThat(events.err()).doesNotContain("session-store: session-store");
    }
  }
}
