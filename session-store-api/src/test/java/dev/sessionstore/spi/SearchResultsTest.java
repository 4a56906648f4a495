package dev.sessionstore.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.Event;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.SearchHit;
import dev.sessionstore.SearchPage;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SearchTerm;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SearchResultsTest {

  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  private static Event event(String sessionId, long seq, long second, String json) {
    return new Event(sessionId, seq, "e" + seq, "message", null, null, null, Json.of(json), T0.plusSeconds(second));
  }

  @Test
  @DisplayName("Only string values are searched: keys and numbers are not")
  void onlyStringValues() {
    Event event = event("s", 1, 0, "{\"invoice\":42,\"list\":[\"Paid\",{\"deep\":\"invoice\"}]}");
    assertThat(SearchText.values(event.payload())).containsExactly("Paid", "invoice");
    assertThat(SearchText.indexText(event.payload())).isEqualTo("invoice paid");
    assertThat(SearchResults.hit(List.of(SearchTerm.word("42")), event)).isEmpty();
  }

  @Test
  @DisplayName("The words of a document made from text, of one read back from a store and of a long one")
  void wordsOfShortLongAndStoredDocuments() {
    String filler = "x".repeat(20_000);
    Json shortMade = Json.of("{\"a\":\"Paid invoice\",\"b\":[\"paid\"]}");
    Json longMade = Json.of("{\"a\":\"Paid invoice\",\"b\":[\"paid\"],\"pad\":\"" + filler + "\"}");
    assertThat(SearchText.indexText(shortMade)).isEqualTo("invoice paid");
    assertThat(SearchText.indexText(StoredJson.of(shortMade.text()))).isEqualTo("invoice paid");
    assertThat(SearchText.indexText(longMade)).isEqualTo("invoice paid " + "x".repeat(64));
    assertThat(SearchText.words(longMade)).containsExactly("invoice", "paid", "x".repeat(64));
  }

  @Test
  @DisplayName("A phrase matches within one string value only; a prefix counts every word it starts")
  void phrasesAndPrefixes() {
    Event split = event("s", 1, 0, "{\"a\":\"not\",\"b\":\"paid\"}");
    Event joined = event("s", 2, 0, "{\"a\":\"Not paid, not PAID yet\"}");
    List<SearchTerm> phrase = List.of(SearchTerm.phrase("not", "paid"));
    assertThat(SearchResults.hit(phrase, split)).isEmpty();
    SearchHit hit = SearchResults.hit(phrase, joined).orElseThrow();
    assertThat(hit.score()).isEqualTo(2);
    assertThat(hit.highlights()).extracting(range -> hit.excerpt().substring(range.start(), range.end()))
        .containsExactly("Not paid", "not PAID");
    assertThat(SearchResults.hit(List.of(SearchTerm.prefix("pa")), joined).orElseThrow().score()).isEqualTo(2);
  }

  @Test
  @DisplayName("Hits rank by score, then newest first, then session id, then seq descending; cursors page them all")
  void orderAndPaging() {
    List<Event> events = new ArrayList<>();
    events.add(event("b", 1, 5, "{\"t\":\"x\"}"));
    events.add(event("a", 1, 5, "{\"t\":\"x\"}"));
    events.add(event("a", 2, 5, "{\"t\":\"x\"}"));
    events.add(event("a", 3, 9, "{\"t\":\"x\"}"));
    events.add(event("c", 1, 0, "{\"t\":\"x x x\"}"));
    events.add(event("c", 2, 0, "{\"t\":\"nothing\"}"));
    SearchQuery query = SearchQuery.of("x").limit(2);

    List<String> seen = new ArrayList<>();
    SearchPage page = SearchResults.page(query, events);
    seen.addAll(ids(page));
    while (page.nextCursor().isPresent()) {
      page = SearchResults.page(query.after(page.nextCursor().get()), events);
      seen.addAll(ids(page));
    }
    assertThat(seen).containsExactly("c/1", "a/3", "a/2", "a/1", "b/1");
  }

  @Test
  @DisplayName("A cursor of another query, or no cursor at all, is refused naming the cursor")
  void foreignCursors() {
    List<Event> events = List.of(event("a", 1, 0, "{\"t\":\"x\"}"), event("a", 2, 0, "{\"t\":\"x\"}"));
    String cursor = SearchResults.page(SearchQuery.of("x").limit(1), events).nextCursor().orElseThrow();
    assertThat(SearchResults.page(SearchQuery.of("x").limit(5).after(cursor), events).hits()).hasSize(1);
    assertThatThrownBy(() -> SearchResults.page(SearchQuery.of("x").session("a").after(cursor), events))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("cursor"));
    assertThatThrownBy(() -> SearchResults.page(SearchQuery.of("x").after("not-a-cursor"), events))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("cursor"));
  }

  @Test
  @DisplayName("An excerpt is a bounded window at word boundaries around the first match")
  void excerpts() {
    String before = "lorem ipsum ".repeat(20);
    String after = " dolor sit".repeat(40);
    Event event = event("s", 1, 0, "{\"t\":\"" + before + "NEEDLE" + after + "\"}");
    SearchHit hit = SearchResults.hit(List.of(SearchTerm.word("needle")), event).orElseThrow();
    assertThat(hit.excerpt().length()).isLessThanOrEqualTo(SearchHit.EXCERPT_LENGTH);
    assertThat(hit.excerpt()).startsWith("lorem").contains("NEEDLE");
    assertThat(hit.excerpt().substring(hit.highlights().get(0).start(), hit.highlights().get(0).end()))
        .isEqualTo("NEEDLE");
    assertThat(hit.excerpt()).doesNotEndWith("dolo").doesNotEndWith("si");
  }

  private static List<String> ids(SearchPage page) {
    return page.hits().stream().map(hit -> hit.event().sessionId() + "/" + hit.event().seq()).toList();
  }
}
