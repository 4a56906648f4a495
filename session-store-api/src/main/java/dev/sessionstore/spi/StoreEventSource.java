package dev.sessionstore.spi;

import dev.sessionstore.SessionStore;

/**
 * A store that reports its internal events ({@link StoreEvents}) to listeners attached after it was built, and counts
 * the waiting reads parked in it now. The in-memory and JDBC stores are sources; so is every decorator built on
 * {@link ForwardingSessionStore} and the validating layer, which pass both on to the store they wrap. A store that is
 * not a source reports nothing: {@link #of(SessionStore)} then gives {@link #NONE}.
 *
 * <pre>{@code
 * try (StoreEventSubscription subscription = StoreEventSource.of(store).subscribe(listener)) {
 *   ...
 * }
 * }</pre>
 *
 * <p>Thread-safe: listeners may be added and removed while the store works.
 */
public interface StoreEventSource {

  /** A source that reports nothing: subscribing does nothing, no read is ever parked. */
  StoreEventSource NONE = new StoreEventSource() {
    @Override
    public StoreEventSubscription subscribe(StoreEvents listener) {
      Arguments.requireNonNull("listener", listener);
      return StoreEventSubscription.NONE;
    }

    @Override
    public int parkedReads() {
      return 0;
    }
  };

  /**
   * Delivers this store's events to {@code listener} from now until the returned subscription is closed, or the
   * store is closed. Subscribing the same listener twice delivers each event to it twice.
   *
   * @throws dev.sessionstore.InvalidArgumentException naming {@code listener} if it is null
   */
  StoreEventSubscription subscribe(StoreEvents listener);

  /**
   * How many waiting reads (of events or of tool calls) are parked in this store now: have found nothing to return
   * and sleep until an append, a change or their timeout. A snapshot, zero or more; zero once the store is closed and
   * its waits have returned.
   */
  int parkedReads();

  /** {@code store} as a source of events if it is one, else {@link #NONE}; never null. */
  static StoreEventSource of(SessionStore store) {
    return store instanceof StoreEventSource source ? source : NONE;
  }
}
