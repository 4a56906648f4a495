package dev.sessionstore;

import java.util.List;
import java.util.Optional;

/**
 * One page of sessions. {@link #nextCursor()} is present only when more matching sessions remain; pass it to
 * {@link SessionQuery#after(String)} for the next page.
 */
public record SessionPage(List<Session> items, Optional<String> nextCursor) {

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public SessionPage {
    items = List.copyOf(Checks.requireNonNull("items", items));
    Checks.requireNonNull("nextCursor", nextCursor);
  }
}
