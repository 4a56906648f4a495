package dev.sessionstore;

import java.util.List;
import java.util.Optional;

/**
 * One page of a {@link Search}'s hits, best first: by {@link SearchHit#score()} descending, then by event timestamp
 * newest first, then by session id (code point order), then by seq descending. That order is total, so paging with
 * {@link #nextCursor()} never repeats a hit and never skips one that matched throughout; an event appended after the
 * first page is found by a new search, or by a later page if it ranks below the cursor.
 *
 * @param hits       the hits, best first
 * @param nextCursor pass to {@link SearchQuery#after(String)} for the next page; present only when more hits follow
 */
public record SearchPage(List<SearchHit> hits, Optional<String> nextCursor) {

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null
   */
  public SearchPage {
    hits = List.copyOf(Checks.requireNonNull("hits", hits));
    Checks.requireNonNull("nextCursor", nextCursor);
  }

  /** Whether the page holds no hit. */
  public boolean isEmpty() {
    return hits.isEmpty();
  }
}
