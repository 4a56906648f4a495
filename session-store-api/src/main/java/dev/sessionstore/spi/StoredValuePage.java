package dev.sessionstore.spi;

import java.util.List;
import java.util.Optional;

/**
 * One page of a {@link StoredValues#scan}: values in the store's scan order, and the cursor of the next page when
 * more may remain.
 *
 * @param values     the values of this page, at most the limit asked for
 * @param nextCursor the cursor to pass for the next page; empty when the scan is complete
 */
public record StoredValuePage(List<StoredValue> values, Optional<String> nextCursor) {

  /**
   * Copies the list.
   * @throws dev.sessionstore.InvalidArgumentException naming {@code page.values} or {@code page.nextCursor} if null
   */
  public StoredValuePage {
    values = List.copyOf(Arguments.requireNonNull("page.values", values));
    Arguments.requireNonNull("page.nextCursor", nextCursor);
  }
}
