package dev.sessionstore;

import java.util.ArrayList;
import java.util.List;

/**
 * The searched words of a document as a full-text index holds them: the distinct word forms ({@link SearchWords}) of
 * its string values, in code point order, joined by single spaces; empty when it holds no word. A {@link Json} makes
 * it on first use and keeps it.
 *
 * <p>Stateless and thread-safe.
 */
final class IndexText {

  private IndexText() {
  }

  /** The index text of a document whose string values, in any order, are {@code values}. */
  static String of(List<String> values) {
    List<String> forms = new ArrayList<>();
    for (String value : values) {
      SearchWords.scan(value, (form, start, end) -> forms.add(form));
    }
    // Sorted in a list and joined past repeats, without a set's entries, into a builder sized for every form, so
    // that it never grows.
    forms.sort(Checks::compareIds);
    int length = forms.size();
    for (String form : forms) {
      length += form.length();
    }
    StringBuilder text = new StringBuilder(length);
    String previous = null;
    for (String form : forms) {
      if (!form.equals(previous)) {
        if (previous != null) {
          text.append(' ');
        }
        text.append(form);
        previous = form;
      }
    }
    return text.toString();
  }
}
