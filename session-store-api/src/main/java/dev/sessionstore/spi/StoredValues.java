package dev.sessionstore.spi;

import java.util.Optional;

/**
 * For decorators that must move what a store holds from one representation to another in place (an encrypting
 * store moving values to a new key): a paged scan of every payload-bearing value the store holds
 * ({@link StoredValueKind}), in the store's own representation, and a compare-and-set rewrite of one value. A store
 * that implements it declares {@link dev.sessionstore.Capability#STORED_VALUE_REWRITE} and hands it out through
 * {@link dev.sessionstore.SessionStore#unwrap}; decorators that change values (an encrypting store) do not pass it
 * on, since below them values are in another form.
 *
 * <p><b>Scan.</b> A scan from no cursor to the page without a next cursor returns every value stored when it began
 * and still stored when it ended exactly once, in a fixed order (by kind, then session, then key); values written or
 * removed while it runs may or may not appear. Each stored row is scanned once: an event a fork shares with its
 * parent appears under the session whose row holds it. Pages are independent reads: no lock is held between them.
 *
 * <p><b>Rewrite.</b> {@link #rewrite} replaces one value if and only if it still equals the expected one, atomically
 * with that comparison, so a pass beside live writers never overwrites a newer value; it changes nothing else (no
 * timestamp, no seq, no status), wakes no waiting read, and is invisible to idempotency except through the value
 * itself. The replacement must be what the decorator above reads as the same value: a store does not check that.
 * Thread-safe.
 */
public interface StoredValues {

  /**
   * The next page of at most {@code limit} values after {@code cursor} (empty: from the start).
   *
   * @throws dev.sessionstore.InvalidArgumentException naming {@code cursor} if it is null or not one this store
   *                                                   returned, {@code limit} if it is not positive
   */
  StoredValuePage scan(Optional<String> cursor, int limit);

  /**
   * Replaces the value at {@code expected.ref()} with {@code replacement} if it still is {@code expected}.
   *
   * @return whether it was replaced; false when the value changed, or its row is gone, since it was read
   * @throws dev.sessionstore.InvalidArgumentException naming {@code expected} or {@code replacement} if null, or
   *                                                   {@code replacement.ref} if it is held elsewhere than
   *                                                   {@code expected}
   */
  boolean rewrite(StoredValue expected, StoredValue replacement);
}
