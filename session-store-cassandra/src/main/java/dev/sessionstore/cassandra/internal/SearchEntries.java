package dev.sessionstore.cassandra.internal;

import dev.sessionstore.Json;
import dev.sessionstore.SearchTerm;
import dev.sessionstore.spi.SearchText;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * What an event row's {@code search_terms} set holds, and the entry a query asks the storage-attached index for: each
 * distinct word of the payload's searched text ({@link SearchText#words}) as itself, and each of its prefixes of 1 to
 * {@link #PREFIX_LENGTH} code points followed by {@link #PREFIX_MARK}, a character no word holds. So a word is found
 * by one exact entry; a prefix of at most {@link #PREFIX_LENGTH} code points by one exact entry; a longer prefix by the
 * entry of its first {@link #PREFIX_LENGTH} code points, which selects more than it (every word sharing those), and
 * {@link dev.sessionstore.spi.SearchResults} keeps only the events that match exactly. An entry is at most
 * {@link dev.sessionstore.Limits#MAX_SEARCH_WORD_LENGTH} chars and a mark (a word is cut there), far below the size
 * past which Cassandra refuses an index term ({@code sai_string_term_size_fail_threshold}, 8 KiB by default).
 */
final class SearchEntries {

  /** The longest prefix entered for a word, in code points: an entry per word per length up to it. */
  static final int PREFIX_LENGTH = 8;

  /** What ends a prefix entry: never part of a word ({@link dev.sessionstore.SearchWords} keeps letters and digits). */
  static final String PREFIX_MARK = "*";

  private SearchEntries() {
  }

  /** The entries of {@code payload}: its words and their prefixes; empty when it holds no word. */
  static Set<String> of(Json payload) {
    Set<String> entries = new LinkedHashSet<>();
    for (String word : SearchText.words(payload)) {
      entries.add(word);
      int length = word.codePointCount(0, word.length());
      for (int points = 1; points <= Math.min(length, PREFIX_LENGTH); points++) {
        entries.add(word.substring(0, word.offsetByCodePoints(0, points)) + PREFIX_MARK);
      }
    }
    return entries;
  }

  /** The entry an event holding {@code word} (one word of {@link SearchText#indexWords}) holds. */
  static String of(SearchTerm word) {
    String form = word.words().get(0);
    if (!word.prefix()) {
      return form;
    }
    int length = form.codePointCount(0, form.length());
    return form.substring(0, form.offsetByCodePoints(0, Math.min(length, PREFIX_LENGTH))) + PREFIX_MARK;
  }
}
