package dev.sessionstore.spi;

import dev.sessionstore.Event;
import dev.sessionstore.SearchHit;
import dev.sessionstore.SearchWords;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The excerpt of a {@link SearchHit}: at most {@link SearchHit#EXCERPT_LENGTH} chars of the string value holding the
 * first match, starting up to {@link #LEAD} chars before it, both ends moved to word boundaries, with the matches it
 * holds as highlights. Stateless and thread-safe.
 */
final class Excerpts {

  /** How much text before the first match an excerpt shows, at most, in chars. */
  static final int LEAD = 60;

  private Excerpts() {
  }

  /** The hit for {@code event} whose first match lies in {@code value}, at {@code ranges} (unordered). */
  static SearchHit hit(Event event, int score, String value, List<SearchHit.Highlight> ranges) {
    List<SearchHit.Highlight> sorted = new ArrayList<>(ranges);
    sorted.sort(Comparator.comparingInt(SearchHit.Highlight::start).thenComparingInt(SearchHit.Highlight::end));
    SearchHit.Highlight first = sorted.get(0);
    int start = wordStartAtOrAfter(value, Math.max(0, first.start() - LEAD), first.start());
    int end = Math.min(value.length(), start + SearchHit.EXCERPT_LENGTH);
    end = wordEndAtOrBefore(value, end, Math.min(first.end(), end));
    List<SearchHit.Highlight> highlights = new ArrayList<>();
    int shown = start;
    for (SearchHit.Highlight range : sorted) {
      if (range.start() >= shown && range.end() <= end) {
        highlights.add(new SearchHit.Highlight(range.start() - start, range.end() - start));
        shown = range.end();
      }
    }
    if (highlights.isEmpty()) {
      highlights.add(new SearchHit.Highlight(0, end - start));
    }
    return new SearchHit(event, score, value.substring(start, end), highlights);
  }

  /** {@code from}, or the first position after it where a word starts, but never past {@code limit}. */
  private static int wordStartAtOrAfter(String value, int from, int limit) {
    int i = from;
    if (i == 0 || !inWord(value, i - 1)) {
      return i;
    }
    while (i < limit && inWord(value, i)) {
      i++;
    }
    while (i < limit && !inWord(value, i)) {
      i++;
    }
    return i;
  }

  /** {@code to}, or the last position before it where a word ends, but never before {@code floor}. */
  private static int wordEndAtOrBefore(String value, int to, int floor) {
    int i = to;
    if (i == value.length() || !inWord(value, i) || !inWord(value, i - 1)) {
      return safe(value, i);
    }
    while (i > floor && inWord(value, i - 1)) {
      i--;
    }
    return i > floor ? i : safe(value, to);
  }

  private static boolean inWord(String value, int index) {
    return SearchWords.isWordChar(value.codePointAt(index));
  }

  private static int safe(String value, int end) {
    return end > 0 && end < value.length() && Character.isLowSurrogate(value.charAt(end)) ? end - 1 : end;
  }
}
