package dev.sessionstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SearchQueryTest {

  private static void assertField(Runnable call, String field) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo(field));
  }

  @Test
  @DisplayName("Text reads as words, quoted phrases and prefixes, repeats counted once")
  void textReadsAsTerms() {
    SearchQuery query = SearchQuery.of("Invoice \"Not  Paid\" refund* invoice");

    assertThat(query.terms()).containsExactly(SearchTerm.word("invoice"), SearchTerm.phrase("not", "paid"),
        SearchTerm.prefix("refund"));
    assertThat(query.text()).isEqualTo("invoice \"not paid\" refund*");
    assertThat(query.limit()).isEqualTo(SearchQuery.DEFAULT_LIMIT);
  }

  @Test
  @DisplayName("An unclosed quote reads its words as plain words; a chunk of several words makes each a term")
  void unclosedQuotesAndChunks() {
    assertThat(SearchQuery.of("\"not paid").terms()).containsExactly(SearchTerm.word("not"), SearchTerm.word("paid"));
    assertThat(SearchQuery.of("e-mail*").terms()).containsExactly(SearchTerm.word("e"), SearchTerm.prefix("mail"));
  }

  @Test
  @DisplayName("Text without a word, too long, or with too many terms is refused naming the field")
  void badTextIsRefused() {
    assertField(() -> SearchQuery.of("  *** \"\" "), "text");
    assertField(() -> SearchQuery.of(null), "text");
    assertField(() -> SearchQuery.of("a".repeat(Limits.MAX_SEARCH_TEXT_LENGTH + 1)), "text");
    StringBuilder many = new StringBuilder();
    for (int i = 0; i <= Limits.MAX_SEARCH_TERMS; i++) {
      many.append("w").append(i).append(' ');
    }
    assertField(() -> SearchQuery.of(many.toString()), "terms");
  }

  @Test
  @DisplayName("Terms hold words in their search form only; a phrase is never a prefix")
  void termsAreChecked() {
    assertField(() -> SearchTerm.word("Invoice"), "words");
    assertField(() -> SearchTerm.word("two words"), "words");
    assertField(() -> new SearchTerm(List.of("a", "b"), true), "words");
    assertField(() -> new SearchTerm(List.of(), false), "words");
  }

  @Test
  @DisplayName("Limits, ranges and cursors are checked where they are set")
  void boundsAreChecked() {
    SearchQuery query = SearchQuery.of("x");
    assertField(() -> query.limit(0), "limit");
    assertField(() -> query.limit(Limits.MAX_SEARCH_LIMIT + 1), "limit");
    assertThat(query.limit(Limits.MAX_SEARCH_LIMIT).limit()).isEqualTo(Limits.MAX_SEARCH_LIMIT);
    Instant t = Instant.parse("2030-01-01T00:00:00Z");
    assertField(() -> query.since(t).until(t), "until");
    assertField(() -> query.after(" "), "cursor");
    assertField(() -> query.after("c".repeat(SearchQuery.MAX_CURSOR_LENGTH + 1)), "cursor");
    assertField(() -> query.session(" "), "sessionId");
  }

  @Test
  @DisplayName("Event filters admit an event only when every set filter holds")
  void filtersAdmit() {
    Instant t = Instant.parse("2030-01-01T00:00:00Z");
    Event event = new Event("s", 1, "e", "user_message", "r", "a", null, Json.emptyObject(), t);
    SearchQuery query = SearchQuery.of("x");
    assertThat(query.admits(event)).isTrue();
    assertThat(query.types("user_message").runId("r").agentId("a").since(t).until(t.plusSeconds(1)).admits(event))
        .isTrue();
    assertThat(query.types("other").admits(event)).isFalse();
    assertThat(query.runId("other").admits(event)).isFalse();
    assertThat(query.agentId("other").admits(event)).isFalse();
    assertThat(query.since(t.plusNanos(1000)).admits(event)).isFalse();
    assertThat(query.until(t).admits(event)).isFalse();
  }
}
