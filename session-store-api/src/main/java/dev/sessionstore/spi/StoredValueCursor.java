package dev.sessionstore.spi;

import dev.sessionstore.InvalidArgumentException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Comparator;
import java.util.Optional;

/**
 * The cursor of a {@link StoredValues#scan}, shared by adapters: the ref of the last value a page returned, as an
 * opaque string, and the order refs are scanned in where the adapter orders them itself (by kind, then session id and
 * key in code point order, numeric keys as numbers).
 */
public final class StoredValueCursor {

  /** The scan order of refs: kind, then session id, then key (as a number where it is one). */
  public static final Comparator<StoredValueRef> ORDER = Comparator.comparing(StoredValueRef::kind)
      .thenComparing(ref -> ref.sessionId() == null ? "" : ref.sessionId())
      .thenComparing((a, b) -> a.kind().numericKey() ? Long.compare(a.numericKey(), b.numericKey())
          : a.key().compareTo(b.key()));

  private StoredValueCursor() {
  }

  /** The cursor of the page after {@code last}. */
  public static String after(StoredValueRef last) {
    String text = last.kind().name() + '\u0000' + (last.sessionId() == null ? "" : last.sessionId()) + '\u0000'
        + last.key();
    return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The ref a cursor was made {@link #after}; empty for no cursor.
   *
   * @throws InvalidArgumentException naming {@code cursor} if it is null or not made by {@link #after}
   */
  public static Optional<StoredValueRef> parse(Optional<String> cursor) {
    Arguments.requireNonNull("cursor", cursor);
    if (cursor.isEmpty()) {
      return Optional.empty();
    }
    try {
      String[] parts = new String(Base64.getUrlDecoder().decode(cursor.get()), StandardCharsets.UTF_8)
          .split("\u0000", -1);
      if (parts.length != 3) {
        throw new IllegalArgumentException("three parts expected");
      }
      StoredValueKind kind = StoredValueKind.valueOf(parts[0]);
      return Optional.of(new StoredValueRef(kind, kind == StoredValueKind.GLOBAL_CHECKPOINT_DATA ? null : parts[1],
          parts[2]));
    } catch (IllegalArgumentException e) {
      throw new InvalidArgumentException("cursor", "is not a cursor of a stored-value scan (" + e.getMessage() + ")");
    }
  }

  /**
   * Checks a rewrite's arguments, for every adapter.
   *
   * @throws InvalidArgumentException naming {@code expected}, {@code replacement} or {@code replacement.ref}
   */
  public static void checkRewrite(StoredValue expected, StoredValue replacement) {
    Arguments.requireNonNull("expected", expected);
    Arguments.requireNonNull("replacement", replacement);
    if (!expected.ref().equals(replacement.ref())) {
      throw new InvalidArgumentException("replacement.ref", "must be the expected value's " + expected.ref()
          + " (was " + replacement.ref() + ")");
    }
  }
}
