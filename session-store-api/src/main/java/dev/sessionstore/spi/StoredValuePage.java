package dev.sessionstore.spi;

import java.util.ArrayList;
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

  /**
   * The page of at most {@code limit} values from {@code read}, values an adapter read in scan order, up to
   * {@code limit + 1} of them: with more than {@code limit}, the first {@code limit} and the cursor
   * {@link StoredValueCursor#after} the last of them; else all of them, and no cursor (the scan is complete).
   */
  public static StoredValuePage of(List<StoredValue> read, int limit) {
    if (read.size() <= limit) {
      return new StoredValuePage(read, Optional.empty());
    }
    List<StoredValue> values = read.subList(0, limit);
    return new StoredValuePage(values, Optional.of(StoredValueCursor.after(values.get(limit - 1).ref())));
  }

  /**
   * The page of at most {@code limit} values after {@code after} (from the first value when empty), read kind by kind
   * in {@link StoredValueKind} order from {@code after}'s kind on, {@code limit + 1} values in all: for adapters that
   * keyset-page each kind's values in an order of their own.
   *
   * @param <E> what {@code reader} may throw
   * @throws E as {@code reader} does
   */
  public static <E extends Exception> StoredValuePage byKind(Optional<StoredValueRef> after, int limit,
      KindReader<E> reader) throws E {
    List<StoredValue> read = new ArrayList<>();
    for (StoredValueKind kind : StoredValueKind.values()) {
      if (after.isPresent() && kind.compareTo(after.get().kind()) < 0) {
        continue;
      }
      read.addAll(reader.read(kind, after.filter(ref -> ref.kind() == kind), limit + 1 - read.size()));
      if (read.size() > limit) {
        break;
      }
    }
    return of(read, limit);
  }

  /**
   * How an adapter reads the values of one kind for {@link #byKind}.
   *
   * @param <E> what a read may throw
   */
  @FunctionalInterface
  public interface KindReader<E extends Exception> {

    /**
     * At most {@code max} values of {@code kind}, in the adapter's order of that kind: those after {@code after} (a
     * ref of {@code kind}), or from the first when it is empty.
     *
     * @throws E when the backend fails
     */
    List<StoredValue> read(StoredValueKind kind, Optional<StoredValueRef> after, int max) throws E;
  }
}
