package dev.sessionstore.jdbc.internal;

/**
 * Delivers the appends of other writers (other store instances, other processes) to a store's
 * {@link SessionWaiters} until closed. How it learns of them is the {@link Dialect}'s business.
 */
interface WakeUpListener extends AutoCloseable {

  /** Stops listening and releases the connection it holds. Idempotent. */
  @Override
  void close();
}
