package dev.sessionstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SearchWordsTest {

  @Test
  @DisplayName("Words are runs of letters and digits, lower-cased; punctuation and symbols separate them")
  void wordsAreLetterAndDigitRuns() {
    assertThat(SearchWords.of("Invoice #42-B, PAID!")).containsExactly("invoice", "42", "b", "paid");
    assertThat(SearchWords.of("  ... ")).isEmpty();
  }

  @Test
  @DisplayName("NFKC folds compatibility forms: full-width letters and ligatures read as their plain words")
  void compatibilityFormsFold() {
    assertThat(SearchWords.of("ＩＮＶＯＩＣＥ")).containsExactly("invoice");
    assertThat(SearchWords.of("ﬁle")).containsExactly("file");
    assertThat(SearchWords.of("Straße")).containsExactly("straße");
  }

  @Test
  @DisplayName("Combining marks stay inside a word, and a decomposed letter finds its composed form")
  void marksStayInWords() {
    assertThat(SearchWords.of("cafe\u0301 ok")).containsExactly("café", "ok");
    assertThat(SearchWords.of("हिन्दी")).hasSize(1);
  }

  @Test
  @DisplayName("A word longer than the limit is kept by its first chars, never cutting a surrogate pair")
  void longWordsAreCut() {
    String longWord = "a".repeat(Limits.MAX_SEARCH_WORD_LENGTH + 10);
    assertThat(SearchWords.of(longWord)).containsExactly("a".repeat(Limits.MAX_SEARCH_WORD_LENGTH));
    String pairs = "a" + "\uD835\uDC00".repeat(Limits.MAX_SEARCH_WORD_LENGTH);
    String cut = SearchWords.of(pairs).get(0);
    assertThat(cut.length()).isLessThanOrEqualTo(Limits.MAX_SEARCH_WORD_LENGTH);
    assertThat(Character.isHighSurrogate(cut.charAt(cut.length() - 1))).isFalse();
  }

  @Test
  @DisplayName("Scanning reports where each word was read, as char ranges of the original text")
  void scanReportsRanges() {
    List<String> seen = new ArrayList<>();
    SearchWords.scan("Hi, ＡＢ", (form, start, end) -> seen.add(form + "@" + start + "-" + end));
    assertThat(seen).containsExactly("hi@0-2", "ab@4-6");
  }
}
