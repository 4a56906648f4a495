package dev.sessionstore;

import java.util.List;

/**
 * One event a {@link Search} found, with why it ranks where it does and a short excerpt to show.
 *
 * @param event      the event, with the session id of the session it was found in (a fork's own id for the events it
 *                   shares with its parent)
 * @param score      how many times the event's searched text holds the query's terms, summed over the terms: each
 *                   occurrence of a word, of a phrase, and each word starting with a prefix counts one; at least 1
 * @param excerpt    part of the first string value of the payload (in document order) that holds a match: at most
 *                   {@link #EXCERPT_LENGTH} chars around the first match, starting and ending at word boundaries
 * @param highlights the matches within {@code excerpt}, in order, as char ranges of it
 */
public record SearchHit(Event event, int score, String excerpt, List<Highlight> highlights) {

  /** The longest {@link #excerpt()}, in chars. */
  public static final int EXCERPT_LENGTH = 200;

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public SearchHit {
    Checks.requireNonNull("event", event);
    Checks.requirePositive("score", score);
    Checks.requireNonNull("excerpt", excerpt);
    highlights = List.copyOf(Checks.requireNonNull("highlights", highlights));
    for (Highlight highlight : highlights) {
      if (highlight.end() > excerpt.length()) {
        throw new InvalidArgumentException("highlights", "a range ends past the excerpt");
      }
    }
  }

  /**
   * A match within an excerpt: chars {@code start} (inclusive) to {@code end} (exclusive).
   *
   * @param start first char of the match
   * @param end   the char after the match's last
   */
  public record Highlight(int start, int end) {

    /**
     * Builds the record.
     * @throws InvalidArgumentException naming {@code end} unless {@code 0 <= start < end}
     */
    public Highlight {
      Checks.requireNonNegative("start", start);
      if (end <= start) {
        throw new InvalidArgumentException("end", "must be after start");
      }
    }
  }
}
