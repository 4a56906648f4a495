package dev.sessionstore;

import java.util.List;

/**
 * One term of a {@link SearchQuery}: a word, a phrase (several words in a row) or a prefix (a word that others may
 * continue). Words are in their {@linkplain SearchWords form} (NFKC, lower case). An event matches a term when the
 * {@linkplain SearchQuery searched text} of its payload holds the word; the words of the phrase consecutively within
 * one string value; or a word starting with the prefix. Immutable.
 *
 * @param words  the word, or the phrase's words in order; never empty
 * @param prefix whether the single word is a prefix ({@code invoic*} finds {@code invoice} and {@code invoicing})
 */
public record SearchTerm(List<String> words, boolean prefix) {

  /**
   * Builds the record, checking its members as described on the type.
   *
   * @throws InvalidArgumentException naming {@code words} if it is null or empty, holds a string that is not one word
   *                                  in its form, or is a phrase marked as a prefix
   */
  public SearchTerm {
    words = List.copyOf(Checks.requireNonNull("words", words));
    if (words.isEmpty()) {
      throw new InvalidArgumentException("words", "must hold at least one word");
    }
    for (String word : words) {
      if (!SearchWords.of(word).equals(List.of(word))) {
        throw new InvalidArgumentException("words", "'" + word + "' is not one word in its search form (lower case,"
            + " NFKC, letters, digits and marks only)");
      }
    }
    if (prefix && words.size() > 1) {
      throw new InvalidArgumentException("words", "a phrase cannot be a prefix");
    }
  }

  /** A term for the word {@code word}, in its form. */
  public static SearchTerm word(String word) {
    return new SearchTerm(List.of(word), false);
  }

  /** A term for a word starting with {@code prefix}, in its form. */
  public static SearchTerm prefix(String prefix) {
    return new SearchTerm(List.of(prefix), true);
  }

  /** A term for the words {@code words} in a row, in their form. */
  public static SearchTerm phrase(String... words) {
    return new SearchTerm(List.of(words), false);
  }

  /** Whether this term is several words in a row. */
  public boolean isPhrase() {
    return words.size() > 1;
  }

  /** The term in the query syntax of {@link SearchQuery#of(String)}: {@code word}, {@code pre*} or {@code "a b"}. */
  public String syntax() {
    if (isPhrase()) {
      return '"' + String.join(" ", words) + '"';
    }
    return prefix ? words.get(0) + "*" : words.get(0);
  }
}
