package dev.sessionstore.jdbc.internal;

/**
 * Delivers the appends of other writers (other store instances, other processes) to a store's
 * {@link SessionWaiters} until closed. How it learns of them is the {@link Dialect}'s business; without a listener
 * ({@link #NONE}) waiting reads find other writers' appends by polling.
 */
interface WakeUpListener extends AutoCloseable {

  /** No listener: notification is off, unsupported by the dialect, or impossible through the data source. */
  WakeUpListener NONE = () -> { };

  /** Stops listening and releases the connection it holds. Idempotent. */
  @Override
  void close();
}
