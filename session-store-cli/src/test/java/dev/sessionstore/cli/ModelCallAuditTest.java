package dev.sessionstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/**
 * The tool sees the model-call audit rows a store holds: {@code stats} counts them, {@code export} writes them (and
 * {@code import} reads them back into another store), {@code retention --model-calls-older-than} removes them.
 */
class ModelCallAuditTest {

  private static final int CALLS = 3;

  @TempDir
  Path folder;

  @Test
  @DisplayName("SQLite: stats counts the audit rows, export and import carry them, retention removes them")
  void sqlite() throws Exception {
    Path file = folder.resolve("audited.db");
    SQLiteDataSource dataSource = new SQLiteDataSource();
    dataSource.setUrl("jdbc:sqlite:" + file);
    try (SessionStore store = JdbcSessionStore.builder().dataSource(dataSource).modelCallAudit(true).build()) {
      fill(store);
    }
    String copy = "jdbc:sqlite:" + folder.resolve("imported.db");

    verify(args -> concat(args, "--jdbc-url", "jdbc:sqlite:" + file), args -> concat(args, "--jdbc-url", copy));
  }

  @Test
  @DisplayName("PostgreSQL: stats counts the audit rows, export and import carry them, retention removes them")
  void postgres() throws Exception {
    try (PostgresSchema source = new PostgresSchema(); PostgresSchema target = new PostgresSchema()) {
      try (SessionStore store = JdbcSessionStore.builder().jdbcUrl(source.url()).schema(source.name())
          .modelCallAudit(true).build()) {
        fill(store);
      }
      verify(source::with, target::with);
    }
  }

  private static void fill(SessionStore store) {
    store.events().append("audited", NewEvent.of("user.message").withId("e-1"));
    for (int turn = 1; turn <= CALLS; turn++) {
      assertThat(store.modelCalls().record("audited",
          NewModelCall.of(turn, "model-" + turn, dev.sessionstore.Json.of("{\"turn\":" + turn + "}")))).isTrue();
    }
  }

  private void verify(Function<String[], String[]> source, Function<String[], String[]> copy) throws Exception {
    assertThat(stats(source).get("modelCalls").asLong()).as("stats of the source").isEqualTo(CALLS);

    Path exported = folder.resolve("export.jsonl");
    Cli.Result export = Cli.run(source.apply(new String[] {"export", "--output", exported.toString()}));
    assertThat(export.exitCode()).as(export.err()).isZero();
    List<String> modelCallLines = Files.readAllLines(exported).stream()
        .filter(line -> line.contains("\"kind\":\"modelCall\"")).toList();
    assertThat(modelCallLines).hasSize(CALLS).allSatisfy(line -> assertThat(line).contains("\"model\":\"model-"));

    Cli.Result imported = Cli.run(copy.apply(new String[] {"import", exported.toString()}));
    assertThat(imported.exitCode()).as(imported.err()).isZero();
    assertThat(stats(copy).get("modelCalls").asLong()).as("stats of the imported copy").isEqualTo(CALLS);
    Path exportedAgain = folder.resolve("export-again.jsonl");
    Cli.Result again = Cli.run(copy.apply(new String[] {"export", "--output", exportedAgain.toString()}));
    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(Files.readAllLines(exportedAgain)).as("the copy's export").isEqualTo(Files.readAllLines(exported));

    Cli.Result retention = Cli.run(source.apply(new String[] {"retention", "--model-calls-older-than", "0d",
        "--json"}));
    assertThat(retention.exitCode()).as(retention.err()).isZero();
    assertThat(Json.parse(retention.out()).get("modelCalls").asLong()).as("removed").isEqualTo(CALLS);
    assertThat(stats(source).get("modelCalls").asLong()).as("stats after retention").isZero();
  }

  private static JsonNode stats(Function<String[], String[]> store) {
    Cli.Result result = Cli.run(store.apply(new String[] {"stats", "--json"}));
    assertThat(result.exitCode()).as(result.err()).isZero();
    return Json.parse(result.out());
  }

  private static String[] concat(String[] first, String... second) {
    String[] all = new String[first.length + second.length];
    System.arraycopy(first, 0, all, 0, first.length);
    System.arraycopy(second, 0, all, first.length, second.length);
    return all;
  }
}
