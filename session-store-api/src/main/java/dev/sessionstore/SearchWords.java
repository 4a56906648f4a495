package dev.sessionstore;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How search reads text into words: the one rule every store applies to what it indexes and to what a
 * {@link SearchQuery} asks, so that a query finds the same events on every adapter.
 *
 * <p>A <b>word</b> is a maximal run of letters, digits and combining marks ({@link Character#isLetterOrDigit} or a
 * mark category), taken from the text as written; its <b>form</b> is that run normalized to Unicode NFKC and
 * lower-cased with {@link Locale#ROOT}, split again where normalization produced other characters, and cut to its
 * first {@link Limits#MAX_SEARCH_WORD_LENGTH} chars (never inside a surrogate pair). Everything else (spaces,
 * punctuation, symbols) separates words and is never searched: {@code "Invoice #42-B, PAID"} holds the words
 * {@code invoice}, {@code 42}, {@code b} and {@code paid}. There is no stemming and there are no stop words, so
 * {@code invoices} does not find {@code invoice}; a prefix term ({@code invoice*}) does.
 *
 * <p>Stateless and thread-safe.
 */
public final class SearchWords {

  private SearchWords() {
  }

  /** The forms of the words of {@code text}, in order, repeats kept. */
  public static List<String> of(String text) {
    List<String> words = new ArrayList<>();
    scan(text, (form, start, end) -> words.add(form));
    return words;
  }

  /**
   * Each word of {@code text} in order: its form and the char range {@code [start, end)} of the run in {@code text}
   * it was read from (several forms share a range when normalization split a run).
   */
  public static void scan(String text, Sink sink) {
    Checks.requireNonNull("text", text);
    int i = 0;
    while (i < text.length()) {
      int codePoint = text.codePointAt(i);
      if (!isWordChar(codePoint)) {
        i += Character.charCount(codePoint);
        continue;
      }
      int start = i;
      boolean ascii = true;
      while (i < text.length()) {
        codePoint = text.codePointAt(i);
        if (!isWordChar(codePoint)) {
          break;
        }
        ascii &= codePoint < 0x80;
        i += Character.charCount(codePoint);
      }
      if (ascii) {
        // NFKC leaves ASCII as it is, and an ASCII run of word chars is letters and digits only: one form.
        sink.word(cut(text.substring(start, i).toLowerCase(Locale.ROOT)), start, i);
      } else {
        emitForms(text.substring(start, i), start, i, sink);
      }
    }
  }

  /** Whether {@code codePoint} belongs to a word: a letter, a digit or a combining mark. */
  public static boolean isWordChar(int codePoint) {
    if (codePoint < 0x80) {
      return codePoint >= 'a' && codePoint <= 'z' || codePoint >= 'A' && codePoint <= 'Z'
          || codePoint >= '0' && codePoint <= '9';
    }
    if (Character.isLetterOrDigit(codePoint)) {
      return true;
    }
    int type = Character.getType(codePoint);
    return type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK
        || type == Character.ENCLOSING_MARK;
  }

  private static void emitForms(String run, int start, int end, Sink sink) {
    String normal = Normalizer.normalize(run, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
    int i = 0;
    while (i < normal.length()) {
      if (!isWordChar(normal.codePointAt(i))) {
        i += Character.charCount(normal.codePointAt(i));
        continue;
      }
      int from = i;
      while (i < normal.length() && isWordChar(normal.codePointAt(i))) {
        i += Character.charCount(normal.codePointAt(i));
      }
      sink.word(cut(normal.substring(from, i)), start, end);
    }
  }

  private static String cut(String form) {
    if (form.length() <= Limits.MAX_SEARCH_WORD_LENGTH) {
      return form;
    }
    int end = Limits.MAX_SEARCH_WORD_LENGTH;
    if (Character.isLowSurrogate(form.charAt(end))) {
      end--;
    }
    return form.substring(0, end);
  }

  /** Receives the words of a text, in order. */
  @FunctionalInterface
  public interface Sink {

    /** One word: its form, and the char range {@code [start, end)} of the text it was read from. */
    void word(String form, int start, int end);
  }
}
