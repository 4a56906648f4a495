package dev.sessionstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code search} on the demo's conversation in a SQLite file, as the README's walk-through runs it. */
class SearchDemoTest {

  @TempDir
  Path folder;

  private String url() {
    return "jdbc:sqlite:" + folder.resolve("demo.db");
  }

  @Test
  @DisplayName("the README's searches: a word everywhere, a phrase in one session, a prefix in one type as JSON lines")
  void walkThrough() {
    assertThat(Cli.run("demo", "--jdbc-url", url()).exitCode()).isZero();

    Cli.Result word = Cli.run("search", "lisbon", "--jdbc-url", url());
    Cli.Result phrase = Cli.run("search", "\"book it\"", "--session", "trip-lisbon", "--jdbc-url", url());
    Cli.Result prefix = Cli.run("--json", "search", "sun*", "--type", "tool_result", "--jdbc-url", url());

    assertThat(word.exitCode()).as(word.err()).isZero();
    assertThat(word.out().lines().toList().get(0)).matches("SESSION +SEQ +TYPE +TIME +EXCERPT");
    assertThat(word.out()).contains("trip-lisbon ", "[Lisbon]");
    assertThat(phrase.exitCode()).as(phrase.err()).isZero();
    assertThat(phrase.out().lines().skip(1).toList()).isNotEmpty()
        .allSatisfy(line -> assertThat(line).startsWith("trip-lisbon ").contains("[book it]"));
    assertThat(prefix.exitCode()).as(prefix.err()).isZero();
    List<JsonNode> lines = prefix.out().lines().map(Json::parse).toList();
    assertThat(lines.subList(0, lines.size() - 1)).isNotEmpty()
        .allSatisfy(hit -> assertThat(hit.get("type").asText()).isEqualTo("tool_result"));
    assertThat(lines.get(lines.size() - 1).get("nextCursor").isNull()).isTrue();
  }

  @Test
  @DisplayName("--limit and --after page through every hit once")
  void paging() {
    assertThat(Cli.run("demo", "--jdbc-url", url()).exitCode()).isZero();
    List<JsonNode> all = Cli.run("--json", "search", "lisbon", "--jdbc-url", url()).out().lines().map(Json::parse)
        .toList();
    List<String> expected = all.subList(0, all.size() - 1).stream()
        .map(hit -> hit.get("sessionId").asText() + "@" + hit.get("seq").asText()).toList();

    List<String> paged = new java.util.ArrayList<>();
    String cursor = null;
    do {
      Cli.Result page = cursor == null
          ? Cli.run("--json", "search", "lisbon", "--limit", "2", "--jdbc-url", url())
          : Cli.run("--json", "search", "lisbon", "--limit", "2", "--after", cursor, "--jdbc-url", url());
      assertThat(page.exitCode()).as(page.err()).isZero();
      List<JsonNode> lines = page.out().lines().map(Json::parse).toList();
      lines.subList(0, lines.size() - 1)
          .forEach(hit -> paged.add(hit.get("sessionId").asText() + "@" + hit.get("seq").asText()));
      JsonNode next = lines.get(lines.size() - 1).get("nextCursor");
      cursor = next.isNull() ? null : next.asText();
    } while (cursor != null);

    assertThat(expected).hasSizeGreaterThan(2);
    assertThat(paged).containsExactlyElementsOf(expected);
  }
}
