package dev.sessionstore.spi;

import dev.sessionstore.Json;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SearchTerm;
import dev.sessionstore.internal.ApiAccess;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The searched text of an event's payload ({@link SearchQuery}: every JSON string value, at any depth, in document
 * order) and the words an adapter indexes from it. An adapter's index must give, for a query, at least every event
 * of the scope that holds each of {@link #indexWords(SearchQuery)} (or, for a prefix, a word starting with it);
 * {@link SearchResults} then decides exactly which of those match, and how they rank, the same way on every adapter.
 *
 * <p>Stateless and thread-safe.
 */
public final class SearchText {

  private static final ApiAccess API = ApiAccess.get();

  private SearchText() {
  }

  /** The string values of {@code payload}, in document order. */
  public static List<String> values(Json payload) {
    Arguments.requireNonNull("payload", payload);
    return API.stringValues(payload);
  }

  /** The distinct word forms of {@code payload}'s searched text, in code point order: what an index holds for it. */
  public static SortedSet<String> words(Json payload) {
    SortedSet<String> words = new TreeSet<>(IdOrder.BY_CODE_POINT);
    String text = indexText(payload);
    if (!text.isEmpty()) {
      words.addAll(Arrays.asList(text.split(" ")));
    }
    return words;
  }

  /**
   * {@link #words(Json)} joined by single spaces: a column for a full-text engine whose own tokenizer splits at spaces
   * and keeps letters and digits (SQLite FTS5's {@code unicode61}, a Cassandra analyzer on whitespace), so that it
   * indexes exactly these words. Empty when the payload holds no word. Computed once per document, on first use, and
   * kept with it: a document that is never searched (metadata, a checkpoint state) never spends the work.
   */
  public static String indexText(Json payload) {
    Arguments.requireNonNull("payload", payload);
    return API.indexText(payload);
  }

  /**
   * The words an event must hold to match {@code query}: every term's words (a phrase's words each, a prefix as a
   * prefix, see {@link SearchTerm#prefix()}), once each, in the query's order.
   */
  public static List<SearchTerm> indexWords(SearchQuery query) {
    Arguments.requireNonNull("query", query);
    List<SearchTerm> words = new ArrayList<>();
    for (SearchTerm term : query.terms()) {
      for (String word : term.words()) {
        SearchTerm single = new SearchTerm(List.of(word), term.prefix());
        if (!words.contains(single)) {
          words.add(single);
        }
      }
    }
    return words;
  }
}
