package dev.sessionstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Event;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewSummary;
import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/**
 * A session whose early chapters {@code session-store retention} cut exports with its cut point and imports as it is:
 * SQLite file -> file -> PostgreSQL schema and another SQLite file -> file, byte-identical, the same seqs and last seq.
 */
class CutSessionExportTest {

  @TempDir
  Path folder;
  private String url;

  @BeforeEach
  void cutALongSession() {
    url = "jdbc:sqlite:" + folder.resolve("cut.db");
    try (SessionStore store = open(url)) {
      store.events().appendAll("long", IntStream.rangeClosed(1, 10)
          .mapToObj(i -> NewEvent.of("message").withId("e" + i)).toList());
      store.summaries().put("long", NewSummary.of(1, 6, dev.sessionstore.Json.of("{\"upTo\": 6}")));
    }
    Cli.Result cut = Cli.run("retention", "--keep-events", "4", "--jdbc-url", url);
    assertThat(cut.exitCode()).as(cut.err()).isZero();
  }

  private static SessionStore open(String url) {
    SQLiteDataSource dataSource = new SQLiteDataSource();
    dataSource.setUrl(url);
    return JdbcSessionStore.builder().dataSource(dataSource).build();
  }

  @Test
  @DisplayName("export -> import into PostgreSQL and SQLite -> export: byte-identical, seqs 7..10 and last seq 10 kept")
  void roundTripOfACutSession() throws Exception {
    Path exported = folder.resolve("cut.jsonl");
    Cli.Result export = Cli.run("export", "-o", exported.toString(), "--jdbc-url", url);
    assertThat(export.exitCode()).as(export.err()).isZero();
    List<String> lines = Files.readAllLines(exported);
    assertThat(lines.get(1)).as("session line").contains("\"cutSeq\":6");
    assertThat(lines).as("event lines").filteredOn(line -> line.startsWith("{\"kind\":\"event\"")).hasSize(4);

    String copy = "jdbc:sqlite:" + folder.resolve("copy.db");
    assertRoundTrip(exported, copy, "--jdbc-url", copy);
    try (SessionStore imported = open(copy)) {
      assertThat(imported.events().read("long", dev.sessionstore.EventQuery.all()).items())
          .extracting(Event::seq).containsExactly(7L, 8L, 9L, 10L);
      assertThat(imported.events().append("long", NewEvent.of("message").withId("e11")).seq()).isEqualTo(11);
    }
    try (PostgresSchema target = new PostgresSchema()) {
      assertRoundTrip(exported, "postgres", target.with());
    }
  }

  private void assertRoundTrip(Path exported, String name, String... target) throws IOException {
    Path again = folder.resolve("again-" + Math.abs(name.hashCode()) + ".jsonl");
    Cli.Result imported = Cli.run(concat(new String[] {"import", exported.toString()}, target));
    Cli.Result export = Cli.run(concat(new String[] {"export", "-o", again.toString()}, target));

    assertThat(imported.exitCode()).as(imported.err()).isZero();
    assertThat(imported.out()).as("import into " + name).startsWith("sessions: 1 imported, 0 unchanged");
    assertThat(export.exitCode()).as(export.err()).isZero();
    assertThat(Files.readAllBytes(again)).as("export from " + name).isEqualTo(Files.readAllBytes(exported));
  }

  private static String[] concat(String[] first, String[] second) {
    String[] all = new String[first.length + second.length];
    System.arraycopy(first, 0, all, 0, first.length);
    System.arraycopy(second, 0, all, first.length, second.length);
    return all;
  }
}
