package dev.sessionstore.spi;

/**
 * A listener's registration with a {@link StoreEventSource}: closing it stops the events. Closing twice is fine;
 * after {@link #close()} returns, events that started before may still be delivered to the listener, none that start
 * after. Thread-safe.
 */
public interface StoreEventSubscription extends AutoCloseable {

  /** A subscription to a source that reports nothing; closing it does nothing. */
  StoreEventSubscription NONE = () -> {
  };

  /** Stops the events to this subscription's listener; idempotent, never throws. */
  @Override
  void close();
}
