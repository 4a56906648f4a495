package dev.sessionstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The reading commands against the demo's conversation, written once to a PostgreSQL schema by {@code demo}. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CommandsTest {

  private PostgresSchema schema;
  private List<String> tryNext;

  @BeforeAll
  void writeTheDemo() {
    schema = new PostgresSchema();
    Cli.Result demo = Cli.run(schema.with("demo"));
    assertThat(demo.exitCode()).as(demo.err()).isZero();
    assertThat(demo.out()).startsWith("session-store demo: one agent conversation on jdbc:postgresql:")
        .contains("17. List sessions");
    tryNext = demo.out().substring(demo.out().indexOf("\nTry next:\n") + 1).lines().toList();
  }

  @AfterAll
  void dropSchema() throws Exception {
    if (schema != null) {
      schema.close();
    }
  }

  @Test
  @DisplayName("demo on the in-memory store prints the transcript; with --json only the sessions it wrote")
  void demoInMemory() {
    Cli.Result table = Cli.run("demo", "--memory");
    Cli.Result json = Cli.run("--memory", "--json", "demo");

    assertThat(table.exitCode()).isZero();
    assertThat(table.out()).startsWith("session-store demo: one agent conversation on the in-memory store");
    assertThat(json.exitCode()).isZero();
    assertThat(Json.parse(json.out()).get("sessions")).extracting(JsonNode::asText)
        .containsExactly("trip-lisbon", "trip-lisbon-rainy");
    assertThat(Json.parse(json.out()).get("tryNext")).extracting(JsonNode::asText)
        .containsExactly("./session-store events trip-lisbon --last 3", "./session-store sessions show trip-lisbon-rainy",
            "./session-store events trip-lisbon --follow");
  }

  @Test
  @DisplayName("demo ends with three commands to try next, on the store it wrote to, and the first two run as printed")
  void demoTryNext() {
    String store = " --jdbc-url '" + schema.url() + "' --schema " + schema.name();
    assertThat(tryNext).hasSize(4).first().isEqualTo("Try next:");
    assertThat(tryNext.get(1)).matches(commented("./session-store events trip-lisbon --last 3" + store));
    assertThat(tryNext.get(2)).matches(commented("./session-store sessions show trip-lisbon-rainy" + store));
    assertThat(tryNext.get(3)).matches(commented("./session-store events trip-lisbon --follow" + store));

    Cli.Result last = Cli.run(words(tryNext.get(1)));
    Cli.Result fork = Cli.run(words(tryNext.get(2)));
    assertThat(last.exitCode()).as(last.err()).isZero();
    assertThat(last.out()).contains("ev-06", "ev-07", "ev-08").doesNotContain("ev-05");
    assertThat(fork.exitCode()).as(fork.err()).isZero();
    assertThat(fork.out()).contains("forked from:       trip-lisbon @ seq 5");

    Cli.Result memory = Cli.run("demo", "--memory");
    assertThat(memory.out()).contains("\nTry next, after `./session-store demo` without --memory (the in-memory store is"
        + " gone when this command ends):\n  ./session-store events trip-lisbon --last 3 ");
  }

  /** A pattern for {@code command} printed indented, then at least three spaces and a comment. */
  private static String commented(String command) {
    return "  " + Pattern.quote(command) + " {3,}# \\S.*";
  }

  /** A printed command line as the shell splits it, without its comment and the leading ./session-store. */
  private static String[] words(String commandLine) {
    String command = commandLine.substring(0, commandLine.indexOf("   # ")).strip();
    List<String> words = new ArrayList<>();
    Matcher word = Pattern.compile("'([^']*)'|(\\S+)").matcher(command);
    while (word.find()) {
      words.add(word.group(1) != null ? word.group(1) : word.group(2));
    }
    assertThat(words.remove(0)).isEqualTo("./session-store");
    return words.toArray(String[]::new);
  }

  @Test
  @DisplayName("demo run again replaces the earlier run's sessions, says so, and leaves the same conversation")
  void demoTwice() {
    String before = Cli.run(schema.with("events", "trip-lisbon", "--json")).out();

    Cli.Result again = Cli.run(schema.with("demo"));

    assertThat(again.exitCode()).isZero();
    assertThat(again.err()).contains("replacing the demo's sessions of an earlier run: trip-lisbon, trip-lisbon-rainy");
    assertThat(again.out()).startsWith("session-store demo: one agent conversation on ");
    String after = Cli.run(schema.with("events", "trip-lisbon", "--json")).out();
    assertThat(seqsAndTypes(after)).isEqualTo(seqsAndTypes(before)).hasSize(8);
  }

  private static List<String> seqsAndTypes(String eventsJson) {
    List<String> ids = new ArrayList<>();
    Json.parse(eventsJson).get("events").forEach(event -> ids.add(event.get("seq").asText() + " " + event.get("type").asText()));
    return ids;
  }

  @Test
  @DisplayName("sessions list prints a table, filters by status, agent and metadata, and pages with a cursor")
  void sessionsList() {
    Cli.Result table = Cli.run(schema.with("sessions", "list"));
    assertThat(table.exitCode()).isZero();
    assertThat(table.out().lines().toList()).hasSize(3);
    assertThat(table.out()).contains("trip-lisbon ", "Lisbon weekend", "trip-lisbon-rainy", "trip-lisbon @ 5");

    assertThat(ids(schema.with("sessions", "list", "--json", "--status", "active", "--agent", "planner",
        "--metadata", "user=ana"))).containsExactly("trip-lisbon", "trip-lisbon-rainy");
    assertThat(ids(schema.with("sessions", "list", "--json", "--status", "paused"))).isEmpty();
    assertThat(ids(schema.with("sessions", "list", "--json", "--metadata", "user=bob"))).isEmpty();
    assertThat(ids(schema.with("sessions", "list", "--json", "--tenant", "acme"))).isEmpty();

    JsonNode first = Json.parse(Cli.run(schema.with("sessions", "list", "--json", "--limit", "1")).out());
    assertThat(first.get("sessions")).extracting(node -> node.get("id").asText()).containsExactly("trip-lisbon");
    assertThat(first.get("sessions").get(0).get("lastSeq").asLong()).isEqualTo(8);
    String cursor = first.get("nextCursor").asText();
    JsonNode second = Json.parse(Cli.run(schema.with("sessions", "list", "--json", "--limit", "1", "--cursor",
        cursor)).out());
    assertThat(second.get("sessions")).extracting(node -> node.get("id").asText())
        .containsExactly("trip-lisbon-rainy");
    assertThat(second.get("nextCursor").isNull()).isTrue();
    assertThat(Cli.run(schema.with("sessions", "list", "--limit", "1")).out()).contains("more: --cursor " + cursor);
  }

  @Test
  @DisplayName("sessions show finds a session by id or by name, with its runs and latest summary")
  void sessionsShow() {
    Cli.Result byName = Cli.run(schema.with("sessions", "show", "Lisbon weekend"));
    Cli.Result byId = Cli.run(schema.with("sessions", "show", "trip-lisbon", "--json"));

    assertThat(byName.exitCode()).isZero();
    assertThat(byName.out()).contains("id:                trip-lisbon", "events:            8",
        "seqs 1..5 (version 1)", "run-1  COMPLETED", "run-2  RUNNING");
    JsonNode session = Json.parse(byId.out());
    assertThat(session.get("name").asText()).isEqualTo("Lisbon weekend");
    assertThat(session.get("lastSeq").asLong()).isEqualTo(8);
    assertThat(session.get("settings").get("resume_policy").asText()).as("a JSON document, not a string")
        .isEqualTo("eager");
    assertThat(session.get("runs")).extracting(run -> run.get("id").asText()).containsExactly("run-1", "run-2");
    assertThat(session.get("latestSummary").get("toSeq").asLong()).isEqualTo(5);
  }

  @Test
  @DisplayName("events applies after, before, first, last, newest-first, run, type and agent")
  void eventsQueries() {
    assertThat(seqs("events", "trip-lisbon")).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
    assertThat(seqs("events", "trip-lisbon", "--after", "6")).containsExactly(7L, 8L);
    assertThat(seqs("events", "trip-lisbon", "--before", "3")).containsExactly(1L, 2L);
    assertThat(seqs("events", "trip-lisbon", "--first", "2", "--after", "2")).containsExactly(3L, 4L);
    assertThat(seqs("events", "trip-lisbon", "--last", "3")).containsExactly(6L, 7L, 8L);
    assertThat(seqs("events", "trip-lisbon", "--last", "2", "--before", "6")).containsExactly(4L, 5L);
    assertThat(seqs("events", "trip-lisbon", "--newest-first", "--limit", "2")).containsExactly(8L, 7L);
    assertThat(seqs("events", "trip-lisbon", "--run", "run-2")).containsExactly(6L, 7L, 8L);
    assertThat(seqs("events", "trip-lisbon", "--type", "tool_use", "--type", "tool_result"))
        .containsExactly(3L, 4L);
    assertThat(seqs("events", "trip-lisbon", "--agent", "researcher")).containsExactly(3L, 4L);
    assertThat(seqs("events", "Lisbon weekend", "--since", "2000-01-01T00:00:00Z", "--first", "1"))
        .containsExactly(1L);

    JsonNode page = Json.parse(Cli.run(schema.with("events", "trip-lisbon", "--json", "--first", "3")).out());
    assertThat(page.get("nextCursor").asLong()).isEqualTo(3);
    JsonNode event = page.get("events").get(2);
    assertThat(event.get("id").asText()).isEqualTo("ev-03");
    assertThat(event.get("agentId").asText()).isEqualTo("researcher");
    assertThat(event.get("payload").isObject()).as("a JSON document, not a string: " + event).isTrue();
    assertThat(event.get("payload").get("tool").asText()).isEqualTo("get_weather");

    Cli.Result table = Cli.run(schema.with("events", "trip-lisbon", "--last", "1"));
    assertThat(table.out()).startsWith("   SEQ  TIME").contains("ev-08", "Perfect, book it.");
    assertThat(table.out().lines()).last().isEqualTo("more: --before 8");
    assertThat(seqs("events", "trip-lisbon", "--last", "1", "--before", "8")).containsExactly(7L);
    assertThat(Cli.run(schema.with("events", "trip-lisbon", "--first", "3")).out().lines())
        .last().isEqualTo("more: --after 3");
    assertThat(seqs("events", "trip-lisbon", "--first", "3", "--after", "3")).containsExactly(4L, 5L, 6L);
    assertThat(Cli.run(schema.with("events", "trip-lisbon", "--newest-first", "--limit", "2")).out().lines())
        .last().isEqualTo("more: --before 7");
    assertThat(Cli.run(schema.with("events", "trip-lisbon", "--first", "8")).out()).doesNotContain("more:");
  }

  @Test
  @DisplayName("An empty table prints none under its header; --json prints an empty list")
  void emptyTables() {
    Cli.Result events = Cli.run(schema.with("events", "trip-lisbon", "--type", "no_such_type"));
    Cli.Result sessions = Cli.run(schema.with("sessions", "list", "--status", "paused"));
    Cli.Result json = Cli.run(schema.with("events", "trip-lisbon", "--type", "no_such_type", "--json"));

    assertThat(events.out().lines().toList()).hasSize(2).last().isEqualTo("none");
    assertThat(events.out()).startsWith("   SEQ  TIME");
    assertThat(sessions.out().lines().toList()).hasSize(2).last().isEqualTo("none");
    assertThat(sessions.out()).startsWith("ID  NAME");
    assertThat(Json.parse(json.out()).get("events")).isEmpty();
  }

  @Test
  @DisplayName("migrate creates the tables where there are none, and running it again changes nothing")
  void migrate() throws Exception {
    try (PostgresSchema empty = new PostgresSchema()) {
      Cli.Result before = Cli.run(empty.with("sessions", "list"));
      Cli.Result first = Cli.run(empty.with("migrate"));
      Cli.Result second = Cli.run(empty.with("migrate", "--json"));
      Cli.Result after = Cli.run(empty.with("sessions", "list"));

      assertThat(before.exitCode()).isEqualTo(ExitCode.NO_SCHEMA.code());
      assertThat(first.exitCode()).isZero();
      assertThat(first.out()).contains("are current");
      assertThat(second.exitCode()).isZero();
      assertThat(Json.parse(second.out()).get("schema").asText()).isEqualTo("current");
      assertThat(after.exitCode()).isZero();
      assertThat(after.out().lines().toList()).hasSize(2).last().isEqualTo("none");
    }
  }

  private List<String> ids(String... args) {
    Cli.Result result = Cli.run(args);
    assertThat(result.exitCode()).as(result.err()).isZero();
    List<String> ids = new ArrayList<>();
    Json.parse(result.out()).get("sessions").forEach(node -> ids.add(node.get("id").asText()));
    return ids;
  }

  private List<Long> seqs(String... args) {
    String[] json = new String[args.length + 1];
    System.arraycopy(args, 0, json, 0, args.length);
    json[args.length] = "--json";
    Cli.Result result = Cli.run(schema.with(json));
    assertThat(result.exitCode()).as(result.err()).isZero();
    List<Long> seqs = new ArrayList<>();
    Json.parse(result.out()).get("events").forEach(node -> seqs.add(node.get("seq").asLong()));
    return seqs;
  }
}
