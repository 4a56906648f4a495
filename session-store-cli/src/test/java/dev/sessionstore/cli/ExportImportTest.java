package dev.sessionstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.jdbc.JdbcSessionStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/**
 * demo, export, import into other backends, export again: the files are identical; importing again changes nothing;
 * every kind of corrupt file is refused with its line number and nothing of the session it hits.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExportImportTest {

  @TempDir
  static Path folder;

  private PostgresSchema source;
  private Path exported;

  @BeforeAll
  void exportTheDemo() {
    source = new PostgresSchema();
    assertThat(Cli.run(source.with("demo")).exitCode()).isZero();
    exported = folder.resolve("demo.jsonl");
    Cli.Result export = Cli.run(source.with("export", "--output", exported.toString()));
    assertThat(export.exitCode()).as(export.err()).isZero();
    assertThat(export.out()).isEqualTo("exported 2 sessions and 0 global checkpoints to " + exported + "\n");
  }

  @AfterAll
  void dropSchema() throws Exception {
    if (source != null) {
      source.close();
    }
  }

  @Test
  @DisplayName("The export has a header, one block per session closed by its end line, and a trailer")
  void format() throws IOException {
    List<String> lines = Files.readAllLines(exported);

    assertThat(lines.get(0)).isEqualTo("{\"kind\":\"header\",\"format\":\"session-store-export\",\"version\":1}");
    assertThat(lines.get(1)).startsWith("{\"kind\":\"session\",\"id\":\"trip-lisbon\",");
    assertThat(lines).filteredOn(line -> line.startsWith("{\"kind\":\"end\"")).containsExactly(
        "{\"kind\":\"end\",\"sessionId\":\"trip-lisbon\",\"records\":13}",
        "{\"kind\":\"end\",\"sessionId\":\"trip-lisbon-rainy\",\"records\":9}");
    assertThat(lines.get(lines.size() - 1))
        .isEqualTo("{\"kind\":\"trailer\",\"sessions\":2,\"globalCheckpoints\":0}");
    assertThat(Cli.run(source.with("export")).out()).isEqualTo(Files.readString(exported));
  }

  @Test
  @DisplayName("PostgreSQL -> file -> another PostgreSQL schema -> file: identical; a second import changes nothing")
  void roundTripThroughPostgres() throws Exception {
    try (PostgresSchema target = new PostgresSchema()) {
      Cli.Result imported = Cli.run(target.with("import", exported.toString()));
      Path again = folder.resolve("again.jsonl");
      Cli.Result export = Cli.run(target.with("export", "-o", again.toString()));
      Cli.Result twice = Cli.run(target.with("import", exported.toString(), "--json"));

      assertThat(imported.exitCode()).as(imported.err()).isZero();
      assertThat(imported.out()).isEqualTo(
          "sessions: 2 imported, 0 unchanged, 0 conflicting; global checkpoints: 0 imported, 0 unchanged, 0 conflicting\n");
      assertThat(export.exitCode()).as(export.err()).isZero();
      assertThat(Files.readAllBytes(again)).isEqualTo(Files.readAllBytes(exported));
      assertThat(twice.exitCode()).isZero();
      JsonNode counts = Json.parse(twice.out()).get("sessions");
      assertThat(counts.get("imported").asInt()).isZero();
      assertThat(counts.get("unchanged").asInt()).isEqualTo(2);
    }
  }

  @Test
  @DisplayName("PostgreSQL -> file -> SQLite file -> file: identical")
  void roundTripThroughSqlite() throws IOException {
    String url = "jdbc:sqlite:" + folder.resolve("copy.db");
    Path again = folder.resolve("from-sqlite.jsonl");

    Cli.Result imported = Cli.run("import", exported.toString(), "--jdbc-url", url);
    Cli.Result export = Cli.run("export", "-o", again.toString(), "--jdbc-url", url);

    assertThat(imported.exitCode()).as(imported.err()).isZero();
    assertThat(imported.out()).startsWith("sessions: 2 imported, 0 unchanged");
    assertThat(export.exitCode()).as(export.err()).isZero();
    assertThat(Files.readAllBytes(again)).isEqualTo(Files.readAllBytes(exported));
    assertThat(Json.parse(Cli.run("stats", "--json", "--jdbc-url", url).out()).get("sizeBytes").asLong())
        .isPositive();
  }

  @Test
  @DisplayName("A session's expiry goes through export and import; sessions list --expires-before finds and prints it")
  void expiryThroughExportAndImport() {
    Path source = folder.resolve("expiring.db");
    Path file = folder.resolve("expiring.jsonl");
    String target = "jdbc:sqlite:" + folder.resolve("expiring-copy.db");
    Instant expiry = Instant.parse("2030-01-01T00:00:00.123456Z");
    SQLiteDataSource dataSource = new SQLiteDataSource();
    dataSource.setUrl("jdbc:sqlite:" + source);
    try (SessionStore store = JdbcSessionStore.builder().dataSource(dataSource).build()) {
      store.sessions().save(SessionWrite.of("expiring").withExpiresAt(expiry));
      store.sessions().save(SessionWrite.of("lasting"));
    }

    Cli.Result export = Cli.run("export", "-o", file.toString(), "--jdbc-url", "jdbc:sqlite:" + source);
    Cli.Result imported = Cli.run("import", file.toString(), "--jdbc-url", target);
    JsonNode listed = Json.parse(Cli.run("sessions", "list", "--json", "--expires-before", "2030-01-02T00:00:00Z",
        "--jdbc-url", target).out());

    assertThat(export.exitCode()).as(export.err()).isZero();
    assertThat(imported.exitCode()).as(imported.err()).isZero();
    assertThat(listed.get("sessions")).extracting(node -> node.get("id").asText()).containsExactly("expiring");
    assertThat(listed.get("sessions").get(0).get("expiresAt").asText()).isEqualTo(expiry.toString());
    assertThat(ids(Cli.run("sessions", "list", "--json", "--jdbc-url", target))).as("every session")
        .containsExactly("expiring", "lasting");
  }

  private static List<String> ids(Cli.Result listed) {
    List<String> ids = new ArrayList<>();
    Json.parse(listed.out()).get("sessions").forEach(node -> ids.add(node.get("id").asText()));
    return ids;
  }

  @Test
  @DisplayName("An import into the in-memory store checks a file whole")
  void importIntoMemory() {
    Cli.Result checked = Cli.run("import", exported.toString(), "--memory");

    assertThat(checked.exitCode()).as(checked.err()).isZero();
    assertThat(checked.out()).startsWith("sessions: 2 imported");
  }

  @Test
  @DisplayName("A corrupt line in the second session: exit 7 naming it; the first session imported, the second not")
  void corruptLineInTheSecondSession() throws Exception {
    List<String> lines = Files.readAllLines(exported);
    int broken = firstLineOf(lines, "\"sessionId\":\"trip-lisbon-rainy\"", "\"kind\":\"event\"");
    lines.set(broken, lines.get(broken).substring(0, 40));
    Path file = write("corrupt.jsonl", lines);

    try (PostgresSchema target = new PostgresSchema()) {
      Cli.Result result = Cli.run(target.with("import", file.toString()));

      FailureTest.assertFailure(result, ExitCode.CORRUPT_FILE, "session-store: " + file + " line " + (broken + 1)
          + ": not valid JSON: ");
      assertThat(result.err()).contains("nothing of session \"trip-lisbon-rainy\" was imported");
      assertThat(Cli.run(target.with("sessions", "show", "trip-lisbon")).exitCode()).isZero();
      assertThat(Cli.run(target.with("sessions", "show", "trip-lisbon-rainy")).exitCode())
          .isEqualTo(ExitCode.UNKNOWN_SESSION.code());
    }
  }

  @Test
  @DisplayName("A gap in a session's seqs: exit 7 naming the line of the event after the gap")
  void archiveRuleBroken() throws IOException {
    List<String> lines = Files.readAllLines(exported);
    int event = firstLineOf(lines, "\"id\":\"ev-08\"", "\"kind\":\"event\"");
    lines.set(event, lines.get(event).replace("\"seq\":8,", "\"seq\":9,"));
    Path file = write("gap.jsonl", lines);

    Cli.Result result = Cli.run("import", file.toString(), "--memory");

    FailureTest.assertFailure(result, ExitCode.CORRUPT_FILE,
        "session-store: " + file + " line " + (event + 1) + ": archive.events[7].seq: ");
    assertThat(result.err()).contains("nothing of session \"trip-lisbon\" was imported");
  }

  @Test
  @DisplayName("Empty, foreign, newer, cut-off and mistyped files: exit 7 with the line; a missing file: exit 8")
  void badFiles() throws IOException {
    List<String> lines = Files.readAllLines(exported);
    int end = firstLineOf(lines, "\"kind\":\"end\"");
    int event = firstLineOf(lines, "\"kind\":\"event\"");

    assertCorrupt(write("empty.jsonl", List.of()), "line 1: the file is empty");
    assertCorrupt(write("foreign.jsonl", List.of("{\"hello\":1}")), "line 1: not a session-store export");
    assertCorrupt(write("newer.jsonl", List.of(lines.get(0).replace("\"version\":1", "\"version\":2"))),
        "line 1: format version 2 is not the version this tool reads (1)");
    assertCorrupt(write("no-trailer.jsonl", lines.subList(0, lines.size() - 1)),
        "line " + lines.size() + ": the file ends without its trailer line");
    assertCorrupt(write("cut.jsonl", lines.subList(0, end)),
        "line " + (end + 1) + ": the file ends inside the block of session \"trip-lisbon\"");
    List<String> mistyped = new ArrayList<>(lines);
    mistyped.set(event, mistyped.get(event).replace("\"seq\":1", "\"seq\":\"one\""));
    assertCorrupt(write("mistyped.jsonl", mistyped), "line " + (event + 1) + ": event: \"seq\" must be an integer");
    List<String> badPayload = new ArrayList<>(lines);
    badPayload.set(event, badPayload.get(event).replaceFirst("\"payload\":\"\\{", "\"payload\":\"{{"));
    assertCorrupt(write("bad-payload.jsonl", badPayload), "line " + (event + 1) + ": event: payload: ");

    FailureTest.assertFailure(Cli.run("import", folder.resolve("missing.jsonl").toString(), "--memory"),
        ExitCode.FILE_ERROR, "session-store: cannot read " + folder.resolve("missing.jsonl") + ": no such file");
  }

  @Test
  @DisplayName("In a terminal, export and import draw their progress on standard error in sessions and records")
  void progressInATerminal() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Path file = folder.resolve("watched.jsonl");

    int exported = SessionStoreCli.run(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), true, source.with("export", "-o", file.toString()));
    int imported = SessionStoreCli.run(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), true, "import", file.toString(), "--memory");

    assertThat(exported).isZero();
    assertThat(imported).isZero();
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("\rexporting [" + "#".repeat(30) + "] 100% 2/2 sessions, 22 records\n")
        .contains("\rimporting [" + "#".repeat(30) + "] 100% 2 sessions, 22 records\n")
        .doesNotContain("bytes");
  }

  @Test
  @DisplayName("stats counts what the demo wrote")
  void stats() {
    Cli.Result result = Cli.run(source.with("stats", "--json"));

    assertThat(result.exitCode()).as(result.err()).isZero();
    JsonNode stats = Json.parse(result.out());
    assertThat(stats.get("sessions").asLong()).isEqualTo(2);
    assertThat(stats.get("events").asLong()).isEqualTo(14);
    assertThat(stats.get("runsByStatus").get("COMPLETED").asLong()).isEqualTo(2);
    assertThat(stats.get("toolCallsByStatus").get("COMPLETED").asLong()).isEqualTo(2);
    assertThat(stats.get("summaries").asLong()).isEqualTo(2);
    assertThat(stats.get("checkpoints").asLong()).isEqualTo(1);
    assertThat(stats.get("sizeBytes").asLong()).isPositive();
    assertThat(Cli.run(source.with("stats")).out()).contains("sessions:          2  {active=2}");
  }

  private void assertCorrupt(Path file, String problem) {
    FailureTest.assertFailure(Cli.run("import", file.toString(), "--memory"), ExitCode.CORRUPT_FILE,
        "session-store: " + file + " " + problem);
  }

  private Path write(String name, List<String> lines) throws IOException {
    return Files.write(folder.resolve(name), lines, StandardCharsets.UTF_8);
  }

  /** The index of the first line containing every one of {@code parts}. */
  private static int firstLineOf(List<String> lines, String... parts) {
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (List.of(parts).stream().allMatch(line::contains)) {
        return i;
      }
    }
    throw new AssertionError("no line contains " + List.of(parts));
  }
}
