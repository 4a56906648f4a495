package dev.sessionstore.spi;

import dev.sessionstore.Archives;
import dev.sessionstore.Capability;
import dev.sessionstore.Checkpoints;
import dev.sessionstore.EventLog;
import dev.sessionstore.ModelCallAudit;
import dev.sessionstore.Retention;
import dev.sessionstore.Runs;
import dev.sessionstore.Search;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Sessions;
import dev.sessionstore.Step;
import dev.sessionstore.StepOutcome;
import dev.sessionstore.Summaries;
import dev.sessionstore.ToolCalls;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Function;

/**
 * The base of a decorator over any {@link SessionStore}: forwards the store and every aggregate it hands out to a
 * delegate, so that a decorator states only what it changes and never forgets an operation. Two ways to decorate,
 * combinable:
 * <ul>
 *   <li>an {@link Interception} given to the constructor runs around every operation of the store and of its
 *       aggregates (metrics, traces, logging);</li>
 *   <li>overriding a {@code decorate} method returns a decorator of that aggregate, usually a subclass of its
 *       {@code Forwarding*} class ({@link ForwardingEventLog}, ...) that overrides the methods whose values it changes
 *       (encryption) and passes the interception on.</li>
 * </ul>
 *
 * <p><b>Capabilities and closing.</b> Each aggregate method asks the delegate first, so an aggregate the delegate
 * lacks fails with the delegate's {@link dev.sessionstore.UnsupportedCapabilityException} and a closed delegate with
 * its {@link dev.sessionstore.StoreClosedException}; the decorated aggregate is made once per delegate aggregate and
 * then reused. {@link #capabilities()} is the delegate's, {@link #close()} closes the delegate. A decorator of
 * decorators is still a {@code SessionStore}: stack them freely.
 *
 * <p><b>For adapter and decorator authors.</b> When the {@code SessionStore} interface gains an aggregate, it gains
 * a {@code Forwarding*} class and a {@code decorate} method here, and every decorator built on this class forwards
 * it with no change. Thread-safe when the delegate, the interception and the decorated aggregates are.
 *
 * <p><b>Store events.</b> A decorator is a {@link StoreEventSource} of the delegate's events: listeners subscribe
 * to the delegate ({@link StoreEventSource#of}), so metrics bound to a decorated store see the adapter's retries,
 * deadlines and waiting reads.
 */
public abstract class ForwardingSessionStore implements SessionStore, StoreEventSource {

  private final SessionStore delegate;
  private final Interception interception;
  private final Decorated<Sessions> sessions = new Decorated<>();
  private final Decorated<EventLog> events = new Decorated<>();
  private final Decorated<Runs> runs = new Decorated<>();
  private final Decorated<ToolCalls> toolCalls = new Decorated<>();
  private final Decorated<Summaries> summaries = new Decorated<>();
  private final Decorated<Checkpoints> checkpoints = new Decorated<>();
  private final Decorated<ModelCallAudit> modelCalls = new Decorated<>();
  private final Decorated<Archives> archives = new Decorated<>();
  private final Decorated<Retention> retention = new Decorated<>();
  private final Decorated<Search> search = new Decorated<>();

  /**
   * Forwards to {@code delegate}, every operation through {@code interception} ({@link Interception#none()} for
   * none). The decorator owns the delegate: closing it closes the delegate.
   *
   * @throws dev.sessionstore.InvalidArgumentException naming {@code delegate} or {@code interception} if null
   */
  protected ForwardingSessionStore(SessionStore delegate, Interception interception) {
    this.delegate = Arguments.requireNonNull("delegate", delegate);
    this.interception = Arguments.requireNonNull("interception", interception);
  }

  /** The store this one forwards to. */
  protected final SessionStore delegate() {
    return delegate;
  }

  /** The hook that runs around every forwarded operation. */
  protected final Interception interception() {
    return interception;
  }

  /** The decorated form of the delegate's {@code sessions}; by default a plain {@link ForwardingSessions}. */
  protected Sessions decorate(Sessions sessions) {
    return new ForwardingSessions(sessions, interception);
  }

  /** The decorated form of the delegate's {@code events}; by default a plain {@link ForwardingEventLog}. */
  protected EventLog decorate(EventLog events) {
    return new ForwardingEventLog(events, interception);
  }

  /** The decorated form of the delegate's {@code runs}; by default a plain {@link ForwardingRuns}. */
  protected Runs decorate(Runs runs) {
    return new ForwardingRuns(runs, interception);
  }

  /** The decorated form of the delegate's {@code toolCalls}; by default a plain {@link ForwardingToolCalls}. */
  protected ToolCalls decorate(ToolCalls toolCalls) {
    return new ForwardingToolCalls(toolCalls, interception);
  }

  /** The decorated form of the delegate's {@code summaries}; by default a plain {@link ForwardingSummaries}. */
  protected Summaries decorate(Summaries summaries) {
    return new ForwardingSummaries(summaries, interception);
  }

  /** The decorated form of the delegate's {@code checkpoints}; by default a plain {@link ForwardingCheckpoints}. */
  protected Checkpoints decorate(Checkpoints checkpoints) {
    return new ForwardingCheckpoints(checkpoints, interception);
  }

  /** The decorated form of the delegate's {@code modelCalls}; by default a plain {@link ForwardingModelCallAudit}. */
  protected ModelCallAudit decorate(ModelCallAudit modelCalls) {
    return new ForwardingModelCallAudit(modelCalls, interception);
  }

  /** The decorated form of the delegate's {@code archives}; by default a plain {@link ForwardingArchives}. */
  protected Archives decorate(Archives archives) {
    return new ForwardingArchives(archives, interception);
  }

  /** The decorated form of the delegate's {@code retention}; by default a plain {@link ForwardingRetention}. */
  protected Retention decorate(Retention retention) {
    return new ForwardingRetention(retention, interception);
  }

  /** The decorated form of the delegate's {@code search}; by default a plain {@link ForwardingSearch}. */
  protected Search decorate(Search search) {
    return new ForwardingSearch(search, interception);
  }

  /** The delegate's sessions, decorated. */
  @Override
  public Sessions sessions() {
    return sessions.of(delegate.sessions(), this::decorate);
  }

  /** The delegate's event log, decorated. */
  @Override
  public EventLog events() {
    return events.of(delegate.events(), this::decorate);
  }

  /** The delegate's runs, decorated. */
  @Override
  public Runs runs() {
    return runs.of(delegate.runs(), this::decorate);
  }

  /** The delegate's tool calls, decorated; fails as the delegate does when it lacks them. */
  @Override
  public ToolCalls toolCalls() {
    return toolCalls.of(delegate.toolCalls(), this::decorate);
  }

  /** The delegate's summaries, decorated; fails as the delegate does when it lacks them. */
  @Override
  public Summaries summaries() {
    return summaries.of(delegate.summaries(), this::decorate);
  }

  /** The delegate's checkpoints, decorated; fails as the delegate does when it lacks them. */
  @Override
  public Checkpoints checkpoints() {
    return checkpoints.of(delegate.checkpoints(), this::decorate);
  }

  /** The delegate's model-call audit, decorated; fails as the delegate does when it lacks it. */
  @Override
  public ModelCallAudit modelCalls() {
    return modelCalls.of(delegate.modelCalls(), this::decorate);
  }

  /** The delegate's archives, decorated; fails as the delegate does when it lacks them. */
  @Override
  public Archives archives() {
    return archives.of(delegate.archives(), this::decorate);
  }

  /** The delegate's retention, decorated; fails as the delegate does when it lacks it. */
  @Override
  public Retention retention() {
    return retention.of(delegate.retention(), this::decorate);
  }

  /** The delegate's search, decorated; fails as the delegate does when it lacks it. */
  @Override
  public Search search() {
    return search.of(delegate.search(), this::decorate);
  }

  /** Forwards the step through the interception as operation {@code commit}. */
  @Override
  public StepOutcome commit(Step step) {
    return interception.around("commit", step == null ? null : step.sessionId(), () -> delegate.commit(step));
  }

  /** The delegate's capabilities. */
  @Override
  public Set<Capability> capabilities() {
    return delegate.capabilities();
  }

  /** Whether the delegate supports {@code capability}. */
  @Override
  public boolean supports(Capability capability) {
    return delegate.supports(capability);
  }

  /**
   * This decorator if it is a {@code type}, else the delegate's answer: a decorator that changes stored values (and
   * so must not hand out what lies below it) overrides this.
   */
  @Override
  public <T> Optional<T> unwrap(Class<T> type) {
    Arguments.requireNonNull("type", type);
    return type.isInstance(this) ? Optional.of(type.cast(this)) : delegate.unwrap(type);
  }

  /** The delegate's schema version: a decorator changes what is stored, never the schema it is stored in. */
  @Override
  public OptionalInt schemaVersion() {
    return delegate.schemaVersion();
  }

  /** Subscribes {@code listener} to the delegate's events; nothing is reported if the delegate is no source. */
  @Override
  public StoreEventSubscription subscribe(StoreEvents listener) {
    return StoreEventSource.of(delegate).subscribe(listener);
  }

  /** The delegate's parked reads; 0 if the delegate is no source. */
  @Override
  public int parkedReads() {
    return StoreEventSource.of(delegate).parkedReads();
  }

  /** Closes the delegate (idempotent when the delegate's close is, as the contract asks). */
  @Override
  public void close() {
    delegate.close();
  }

  /** The delegate's description. */
  @Override
  public String toString() {
    return delegate.toString();
  }

  /**
   * One aggregate's decorated form, made once per delegate aggregate: a delegate that hands out the same aggregate
   * every time (as {@link ValidatingSessionStore} does) is decorated once. Racing threads may each decorate it once;
   * decorators are stateless views, so either result serves.
   */
  private static final class Decorated<T> {

    private volatile Pair<T> current;

    T of(T source, Function<T, T> decorate) {
      Pair<T> pair = current;
      if (pair == null || pair.source != source) {
        pair = new Pair<>(source, decorate.apply(source));
        current = pair;
      }
      return pair.decorated;
    }

    private record Pair<T>(T source, T decorated) {
    }
  }
}
