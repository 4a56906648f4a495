package dev.sessionstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sessionstore.Capability;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SearchPage;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.UnsupportedCapabilityException;
import dev.sessionstore.memory.InMemorySessionStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@code search}: the command line, its table and JSON lines for a page of real hits (from an in-memory store, as the
 * command prints them), and its failures.
 */
class SearchCommandTest {

  private static final Instant T0 = Instant.parse("2025-01-31T12:00:00Z");

  /** A store holding an invoice conversation in two sessions, searched with {@code query}. */
  private static SearchPage searched(SearchQuery query) {
    try (SessionStore store = InMemorySessionStore.builder().build()) {
      store.events().append("billing", event("e1", "user_message", 0,
          "{\"text\": \"My invoice 42 was not paid, please check the invoice\"}"));
      store.events().append("billing", event("e2", "assistant_message", 1,
          "{\"text\": \"" + "Let me look at your account history first, it takes a moment to load all of it. "
              + "Invoice 42 shows as paid on the 3rd.\"}"));
      store.events().append("travel", event("e3", "user_message", 2, "{\"text\": \"Book a train to Lisbon\"}"));
      return store.search().find(query);
    }
  }

  private static NewEvent event(String id, String type, int minutes, String payload) {
    return new NewEvent(id, type, null, null, null, dev.sessionstore.Json.parse("payload", payload),
        T0.plusSeconds(60L * minutes));
  }

  private static String printed(SearchPage page, boolean json) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SearchLines(new Output(new PrintStream(out, true, StandardCharsets.UTF_8), json)).print(page);
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  @DisplayName("the table: session, seq, type, time and the excerpt with its matches in brackets, best first")
  void table() {
    List<String> lines = printed(searched(SearchQuery.of("invoice")), false).lines().toList();

    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).matches("SESSION +SEQ +TYPE +TIME +EXCERPT");
    assertThat(lines.get(1)).matches("billing +1 +user_message +2025-01-31T12:00:00Z +My \\[invoice] 42 was not paid,"
        + " please check the \\[invoice]");
    // the match lies past the table's cut: the excerpt is shown from a little before it
    assertThat(lines.get(2)).matches("billing +2 +assistant_message +2025-01-31T12:01:00Z +\\.\\.\\..*\\[Invoice] 42.*");
  }

  @Test
  @DisplayName("a next page is named by its cursor; --json prints one line per hit, then the cursor")
  void pagesAndJsonLines() {
    SearchPage first = searched(SearchQuery.of("invoice").limit(1));
    assertThat(printed(first, false)).contains("\nmore: --after " + first.nextCursor().orElseThrow() + "\n");

    List<String> lines = printed(first, true).lines().toList();
    assertThat(lines).hasSize(2);
    JsonNode hit = Json.parse(lines.get(0));
    assertThat(hit.get("sessionId").asText()).isEqualTo("billing");
    assertThat(hit.get("seq").asLong()).isEqualTo(1);
    assertThat(hit.get("type").asText()).isEqualTo("user_message");
    assertThat(hit.get("payload").get("text").asText()).startsWith("My invoice 42");
    assertThat(hit.get("score").asInt()).isEqualTo(2);
    assertThat(hit.get("excerpt").asText()).isEqualTo("My invoice 42 was not paid, please check the invoice");
    assertThat(hit.get("highlights").toString()).isEqualTo("[{\"start\":3,\"end\":10},{\"start\":45,\"end\":52}]");
    assertThat(Json.parse(lines.get(1)).get("nextCursor").asText()).isEqualTo(first.nextCursor().orElseThrow());

    SearchPage last = searched(SearchQuery.of("lisbon"));
    assertThat(printed(last, true).lines().toList()).hasSize(2).last().isEqualTo("{\"nextCursor\":null}");
    assertThat(printed(searched(SearchQuery.of("nothing")), false)).isEqualTo(
        "SESSION  SEQ  TYPE  TIME  EXCERPT\nnone\n");
  }

  @Test
  @DisplayName("on a store: every option is taken; nothing found prints none, or the cursor line alone with --json")
  void onTheStore() {
    Cli.Result table = Cli.run("--memory", "search", "not", "paid", "--tenant", "acme", "--type", "user_message",
        "--type", "assistant_message", "--since", "2025-01-31T12:00:00Z", "--limit", "5");
    Cli.Result json = Cli.run("--memory", "--json", "search", "\"not paid\" invoice*");

    assertThat(table.exitCode()).as(table.err()).isZero();
    assertThat(table.out()).isEqualTo("SESSION  SEQ  TYPE  TIME  EXCERPT\nnone\n");
    assertThat(json.exitCode()).as(json.err()).isZero();
    assertThat(json.out()).isEqualTo("{\"nextCursor\":null}\n");
  }

  @Test
  @DisplayName("no word, a bad limit or cursor: exit 2; an unknown --session: exit 3")
  void badInput() {
    FailureTest.assertFailure(Cli.run("--memory", "search", "?!"), ExitCode.USAGE,
        "session-store: invalid text: holds no word to search for");
    FailureTest.assertFailure(Cli.run("--memory", "search", "invoice", "--limit", "101"), ExitCode.USAGE,
        "session-store: invalid limit");
    FailureTest.assertFailure(Cli.run("--memory", "search", "invoice", "--after", "not-a-cursor"), ExitCode.USAGE,
        "session-store: invalid cursor");
    FailureTest.assertFailure(Cli.run("--memory", "search", "invoice", "--session", "nobody"),
        ExitCode.UNKNOWN_SESSION, "session-store: no session with id or name \"nobody\"");
  }

  @Test
  @DisplayName("a store without search (none the tool opens lacks it): exit 13")
  void unsupported() {
    assertThat(SessionStoreCli.exitCode(new UnsupportedCapabilityException(Capability.SEARCH)))
        .isEqualTo(ExitCode.UNSUPPORTED);
  }
}
