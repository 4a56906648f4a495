package dev.sessionstore.micrometer;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.SessionStore;
import dev.sessionstore.spi.Arguments;
import dev.sessionstore.spi.RetryCause;
import dev.sessionstore.spi.SettledOutcome;
import dev.sessionstore.spi.StoreEventSource;
import dev.sessionstore.spi.StoreEventSubscription;
import dev.sessionstore.spi.StoreEvents;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Meters what a store does inside itself, which its caller cannot measure from outside (the observations of
 * {@link ObservedSessionStore} time the calls): a {@link MeterBinder} that subscribes to the store's events
 * ({@link StoreEventSource}) and registers, each with the tag {@code adapter}:
 * <ul>
 *   <li>{@code session.store.retries} (counter, tag {@code cause}: {@code serialization}, {@code deadlock},
 *       {@code conflict}, {@code connection}): units of work the store ran again inside one call;</li>
 *   <li>{@code session.store.outcomes.settled} (counter, tag {@code result}: {@code applied}, {@code not-applied},
 *       {@code ran-again}): unknown commit outcomes the store settled itself;</li>
 *   <li>{@code session.store.deadlines.fired} (counter): tool calls the store's own deadline work expired;</li>
 *   <li>{@code session.store.reads.parked} (gauge): waiting reads sleeping in the store now;</li>
 *   <li>{@code session.store.reads.wake} (timer): from the commit that woke a parked waiting read to its return,
 *       where the store knows both.</li>
 * </ul>
 * Every tag value comes from a closed set; no session id ever becomes one. Counters of each cause and result exist
 * from the bind on, at zero. A store that reports no events (not a {@link StoreEventSource}, such as a store of a
 * third-party adapter) gets the meters at zero.
 *
 * <pre>{@code
 * SessionStoreMetrics metrics = SessionStoreMetrics.of(store, "postgresql");
 * metrics.bindTo(meterRegistry);
 * }</pre>
 *
 * <p>Bind to any number of registries; {@link #close()} stops the events to all of them (the gauge then reads the
 * store's parked reads as long as the registry keeps it; Micrometer holds the store weakly). Thread-safe.
 */
public final class SessionStoreMetrics implements MeterBinder, AutoCloseable {

  private final StoreEventSource source;
  private final String adapter;
  private final List<StoreEventSubscription> subscriptions = new CopyOnWriteArrayList<>();

  private SessionStoreMetrics(StoreEventSource source, String adapter) {
    this.source = source;
    this.adapter = adapter;
  }

  /**
   * Metrics of {@code store} tagged {@code adapter} with the store's description up to its first {@code [} (its
   * adapter's class name), as {@link ObservedSessionStore} tags by default.
   *
   * @throws InvalidArgumentException naming {@code store} if it is null
   */
  public static SessionStoreMetrics of(SessionStore store) {
    return new SessionStoreMetrics(StoreEventSource.of(Arguments.requireNonNull("store", store)),
        AdapterName.of(store));
  }

  /**
   * Metrics of {@code store} tagged {@code adapter}: a short, fixed name of the backend ({@code memory},
   * {@code postgresql}, ...), the same as the observed store's.
   *
   * @throws InvalidArgumentException naming {@code store} if it is null, or {@code adapter} if it is null or not a key
   */
  public static SessionStoreMetrics of(SessionStore store, String adapter) {
    return new SessionStoreMetrics(StoreEventSource.of(Arguments.requireNonNull("store", store)),
        Arguments.requireKey("adapter", adapter));
  }

  /** Registers the meters in {@code registry} and subscribes them to the store's events until {@link #close()}. */
  @Override
  public void bindTo(MeterRegistry registry) {
    Map<RetryCause, Counter> retries = new EnumMap<>(RetryCause.class);
    for (RetryCause cause : RetryCause.values()) {
      retries.put(cause, Counter.builder("session.store.retries")
          .description("Units of work the store ran again inside one call, by cause")
          .tag("adapter", adapter).tag("cause", cause.tag()).register(registry));
    }
    Map<SettledOutcome, Counter> settled = new EnumMap<>(SettledOutcome.class);
    for (SettledOutcome outcome : SettledOutcome.values()) {
      settled.put(outcome, Counter.builder("session.store.outcomes.settled")
          .description("Unknown commit outcomes the store settled itself, by result")
          .tag("adapter", adapter).tag("result", outcome.tag()).register(registry));
    }
    Counter deadlines = Counter.builder("session.store.deadlines.fired")
        .description("Tool calls the store's own deadline work expired")
        .tag("adapter", adapter).register(registry);
    Gauge.builder("session.store.reads.parked", source, StoreEventSource::parkedReads)
        .description("Waiting reads sleeping in the store now")
        .tag("adapter", adapter).register(registry);
    Timer wake = Timer.builder("session.store.reads.wake")
        .description("From the commit that woke a parked waiting read to the read's return")
        .tag("adapter", adapter).register(registry);
    Meters meters = new Meters(Map.copyOf(retries), Map.copyOf(settled), deadlines, wake);
    subscriptions.add(source.subscribe(meters));
  }

  /** Stops the events to every registry this was bound to; the meters stay registered. Idempotent. */
  @Override
  public void close() {
    for (StoreEventSubscription subscription : subscriptions) {
      subscription.close();
      subscriptions.remove(subscription);
    }
  }

  /** The listener of one binding: each event moves its meter. */
  private record Meters(Map<RetryCause, Counter> retries, Map<SettledOutcome, Counter> settled, Counter deadlines,
      Timer wake) implements StoreEvents {

    @Override
    public void retried(RetryCause cause) {
      retries.get(cause).increment();
    }

    @Override
    public void outcomeSettled(SettledOutcome outcome) {
      settled.get(outcome).increment();
    }

    @Override
    public void deadlineFired() {
      deadlines.increment();
    }

    @Override
    public void readWoken(Duration sinceCommit) {
      wake.record(sinceCommit);
    }
  }
}
