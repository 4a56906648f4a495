package dev.sessionstore.spi;

import dev.sessionstore.InvalidArgumentException;

/**
 * Where one value is stored: its kind, the session whose row holds it and the row's key within that session (see
 * {@link StoredValueKind} for what the key is). A value a fork shows but its parent wrote is held, and scanned, under
 * the session whose row holds it.
 *
 * @param kind      what the value is
 * @param sessionId the session owning the row; {@code null} exactly for {@link StoredValueKind#GLOBAL_CHECKPOINT_DATA}
 * @param key       the row's key within the session: a seq or turn in decimal, or an id or name
 */
public record StoredValueRef(StoredValueKind kind, String sessionId, String key) {

  /**
   * Checks the members.
   * @throws InvalidArgumentException naming {@code ref.kind}, {@code ref.sessionId} or {@code ref.key} if one is
   *                                  missing, present where it may not be, or not a number where one is needed
   */
  public StoredValueRef {
    Arguments.requireNonNull("ref.kind", kind);
    if ((kind == StoredValueKind.GLOBAL_CHECKPOINT_DATA) != (sessionId == null)) {
      throw new InvalidArgumentException("ref.sessionId", kind == StoredValueKind.GLOBAL_CHECKPOINT_DATA
          ? "a global checkpoint belongs to no session" : "is required for " + kind);
    }
    Arguments.requireNonNull("ref.key", key);
    if (kind.numericKey()) {
      numericKey(key);
    }
  }

  /** The key as a number: the seq or turn of a kind with {@link StoredValueKind#numericKey()}. */
  public long numericKey() {
    return numericKey(key);
  }

  private static long numericKey(String key) {
    try {
      return Long.parseLong(key);
    } catch (NumberFormatException e) {
      throw new InvalidArgumentException("ref.key", "must be a seq or turn in decimal (was " + key + ")");
    }
  }
}
