package dev.sessionstore.micrometer;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.SessionStore;
import dev.sessionstore.spi.Arguments;
import dev.sessionstore.spi.ForwardingSessionStore;
import io.micrometer.observation.ObservationRegistry;

/**
 * A {@link SessionStore} that records one Micrometer observation per operation of any store it wraps, and is
 * otherwise that store: same results, same exceptions, same guarantees (the whole conformance kit passes on an
 * observed store). With Micrometer's {@code DefaultMeterObservationHandler} each observation becomes a timer
 * {@code session.store.operation} (count, total and max time per operation, adapter and outcome) and a long-task
 * timer {@code session.store.operation.active} (operations under way; with {@code operation=events.await} the waiting
 * reads parked now); with {@code micrometer-tracing}, a span per operation named {@code session-store <operation>}.
 *
 * <pre>{@code
 * SessionStore store = ObservedSessionStore.builder(JdbcSessionStore.builder().dataSource(ds).build())
 *     .registry(observationRegistry).adapter("postgresql").build();
 * }</pre>
 *
 * <p>Key values: see {@link SessionStoreObservationConvention}. Outcomes: see {@link Outcome}. An operation an
 * adapter retries inside itself (a commit whose outcome it settles) is one observation, since the observed store sees
 * one call. Cost: one observation per call; nothing (not even its context) while the registry is a no-op
 * ({@link ObservationRegistry#isNoop()}: {@link ObservationRegistry#NOOP}, or one with no handler yet).
 *
 * <p>The store's internal events (retries, settled outcomes, deadlines fired, parked and woken reads) pass through
 * to the wrapped store ({@link dev.sessionstore.spi.StoreEventSource}); {@link SessionStoreMetrics} meters them.
 *
 * <p>Thread-safe when the wrapped store is. Closing closes the wrapped store.
 */
public final class ObservedSessionStore extends ForwardingSessionStore {

  private ObservedSessionStore(SessionStore delegate, ObservingInterception interception) {
    super(delegate, interception);
  }

  /**
   * A builder observing {@code store}; the observed store owns it from {@link Builder#build()} on.
   *
   * @throws InvalidArgumentException naming {@code store} if it is null
   */
  public static Builder builder(SessionStore store) {
    return new Builder(Arguments.requireNonNull("store", store));
  }

  /**
   * Builds an {@link ObservedSessionStore}. Each setter may be called once and refuses null. Not thread-safe; the
   * store it builds is.
   */
  public static final class Builder {

    private final SessionStore store;
    private ObservationRegistry registry;
    private SessionStoreObservationConvention convention;
    private String adapter;

    private Builder(SessionStore store) {
      this.store = store;
    }

    /**
     * The registry observations go to (required).
     *
     * @throws InvalidArgumentException naming {@code registry} if null or set before
     */
    public Builder registry(ObservationRegistry registry) {
      this.registry = once("registry", this.registry, registry);
      return this;
    }

    /**
     * The value of the {@code adapter} key: a short, fixed name of the backend ({@code memory}, {@code postgresql},
     * ...). Default: the wrapped store's description up to its first {@code [}, which names the adapter's class.
     *
     * @throws InvalidArgumentException naming {@code adapter} if null, not a key, or set before
     */
    public Builder adapter(String adapter) {
      this.adapter = once("adapter", this.adapter, Arguments.requireKey("adapter", adapter));
      return this;
    }

    /**
     * A convention replacing the default one's names and key values ({@link SessionStoreObservationConvention}).
     * A convention registered on the registry for these contexts wins over both.
     *
     * @throws InvalidArgumentException naming {@code convention} if null or set before
     */
    public Builder convention(SessionStoreObservationConvention convention) {
      this.convention = once("convention", this.convention, convention);
      return this;
    }

    /**
     * The observed store.
     *
     * @throws InvalidArgumentException naming {@code registry} if none was given
     */
    public ObservedSessionStore build() {
      if (registry == null) {
        throw new InvalidArgumentException("registry", "is required: give the ObservationRegistry to record to"
            + " (ObservationRegistry.NOOP to record nothing)");
      }
      String name = adapter != null ? adapter : AdapterName.of(store);
      return new ObservedSessionStore(store, new ObservingInterception(registry, convention, name));
    }

    private static <T> T once(String field, T current, T value) {
      Arguments.requireNonNull(field, value);
      if (current != null) {
        throw new InvalidArgumentException(field, "is already set to " + current);
      }
      return value;
    }
  }
}
