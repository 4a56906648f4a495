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
import dev.sessionstore.StoreClosedException;
import dev.sessionstore.Summaries;
import dev.sessionstore.ToolCalls;
import dev.sessionstore.UnsupportedCapabilityException;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The argument rules and the closed-store rule of the contract, applied once in front of any adapter: every
 * operation of the store and of each aggregate it hands out checks, in this order, that the store is open
 * ({@link StoreClosedException} otherwise) and that every argument is valid ({@link Arguments}: an
 * {@link dev.sessionstore.InvalidArgumentException} naming the field otherwise), and only then calls the adapter. So
 * every adapter rejects the same input with the same error, before it reads or writes anything (guarantee
 * <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#15">15</a>). What the layer guarantees to the adapter behind it is stated in this package's description.
 *
 * <p><b>Capabilities.</b> The layer reads the adapter's {@link SessionStore#capabilities()} once, when it wraps it.
 * An aggregate whose capability the adapter lacks fails with {@link UnsupportedCapabilityException} when asked for,
 * and so does every operation, and every member of a step, that needs an undeclared capability (a fork, a
 * truncation, a waiting read, a claim or a fenced step, a tenant on a session write, a listing or a search, a tool call's
 * deadline; a step's cut, tool calls, summary, checkpoints or model call), checked after the arguments and before the
 * adapter is called, so that nothing is stored. An adapter lacking a capability need not check these itself.
 *
 * <p><b>Closing.</b> {@link #close()} closes the layer, then the adapter, once: a second call does nothing. From its
 * first call on, every operation fails with {@link StoreClosedException}, also on aggregates obtained before. A
 * waiting read or tool-call wait blocked in the adapter when the store is closed is released by the adapter's close
 * (adapters must wake every blocked wait when closed) and throws {@link StoreClosedException}; a wait that already
 * had its answer returns it. Calls already running in the adapter are not interrupted.
 *
 * <p>Cheap: the checks read the arguments once, and the layer copies only what it must check as a whole (a batch of
 * events and a metadata patch are checked and passed on as unmodifiable copies, which the adapter need not copy
 * again). Thread-safe when the adapter is.
 */
public final class ValidatingSessionStore implements SessionStore, StoreEventSource {

  private final SessionStore adapter;
  private final OpenGate gate = new OpenGate();
  private final Sessions sessions;
  private final EventLog events;
  private final Runs runs;
  private final ToolCalls toolCalls;
  private final Summaries summaries;
  private final Checkpoints checkpoints;
  private final ModelCallAudit modelCalls;
  private final Archives archives;
  private final Retention retention;
  private final Search search;
  private final DeclaredCapabilities declared;

  private ValidatingSessionStore(SessionStore adapter) {
    this.adapter = adapter;
    this.declared = new DeclaredCapabilities(adapter.capabilities());
    this.sessions = new ValidatingSessions(gate, declared, adapter.sessions());
    this.events = new ValidatingEventLog(gate, declared, adapter.events());
    this.runs = new ValidatingRuns(gate, adapter.runs());
    ToolCalls adapterToolCalls = ifSupported(adapter::toolCalls);
    this.toolCalls = adapterToolCalls == null ? null : new ValidatingToolCalls(gate, declared, adapterToolCalls);
    Summaries adapterSummaries = ifSupported(adapter::summaries);
    this.summaries = adapterSummaries == null ? null : new ValidatingSummaries(gate, adapterSummaries);
    Checkpoints adapterCheckpoints = ifSupported(adapter::checkpoints);
    this.checkpoints = adapterCheckpoints == null ? null : new ValidatingCheckpoints(gate, adapterCheckpoints);
    ModelCallAudit adapterModelCalls = ifSupported(adapter::modelCalls);
    this.modelCalls = adapterModelCalls == null ? null : new ValidatingModelCallAudit(gate, adapterModelCalls);
    Archives adapterArchives = ifSupported(adapter::archives);
    this.archives = adapterArchives == null ? null
        : new ValidatingArchives(gate, adapterArchives, adapter::capabilities);
    Retention adapterRetention = ifSupported(adapter::retention);
    this.retention = adapterRetention == null ? null : new ValidatingRetention(gate, adapterRetention);
    Search adapterSearch = ifSupported(adapter::search);
    this.search = adapterSearch == null ? null : new ValidatingSearch(gate, declared, adapterSearch);
  }

  /**
   * {@code adapter} behind the validating layer; a store that already is one is returned as is. The layer owns the
   * adapter from now on: closing the layer closes it.
   *
   * @throws dev.sessionstore.InvalidArgumentException naming {@code adapter} if it is null
   */
  public static SessionStore wrap(SessionStore adapter) {
    Arguments.requireNonNull("adapter", adapter);
    return adapter instanceof ValidatingSessionStore ? adapter : new ValidatingSessionStore(adapter);
  }

  /** The adapter's aggregate, or {@code null} when the adapter lacks its capability. */
  private static <T> T ifSupported(Supplier<T> aggregate) {
    try {
      return aggregate.get();
    } catch (UnsupportedCapabilityException absent) {
      return null;
    }
  }

  @Override
  public Sessions sessions() {
    gate.checkOpen();
    return sessions;
  }

  @Override
  public EventLog events() {
    gate.checkOpen();
    return events;
  }

  @Override
  public Runs runs() {
    gate.checkOpen();
    return runs;
  }

  @Override
  public ToolCalls toolCalls() {
    return supported(toolCalls, Capability.TOOL_CALLS);
  }

  @Override
  public Summaries summaries() {
    return supported(summaries, Capability.SUMMARIES);
  }

  @Override
  public Checkpoints checkpoints() {
    return supported(checkpoints, Capability.CHECKPOINTS);
  }

  @Override
  public ModelCallAudit modelCalls() {
    return supported(modelCalls, Capability.MODEL_CALL_AUDIT);
  }

  @Override
  public Archives archives() {
    return supported(archives, Capability.ARCHIVES);
  }

  @Override
  public Retention retention() {
    return supported(retention, Capability.RETENTION);
  }

  @Override
  public Search search() {
    return supported(search, Capability.SEARCH);
  }

  private <T> T supported(T aggregate, Capability capability) {
    gate.checkOpen();
    if (aggregate == null) {
      throw new UnsupportedCapabilityException(capability);
    }
    return aggregate;
  }

  @Override
  public StepOutcome commit(Step step) {
    gate.checkOpen();
    Arguments.requireNonNull("step", step);
    declared.requireFor(step);
    return adapter.commit(step);
  }

  @Override
  public Set<Capability> capabilities() {
    gate.checkOpen();
    return adapter.capabilities();
  }

  /** The adapter's schema version, once the store is checked open. */
  /** The adapter's answer ({@link SessionStore#unwrap}): the validating layer holds no hook of its own. */
  @Override
  public <T> Optional<T> unwrap(Class<T> type) {
    Arguments.requireNonNull("type", type);
    gate.checkOpen();
    return type.isInstance(this) ? Optional.of(type.cast(this)) : adapter.unwrap(type);
  }

  @Override
  public OptionalInt schemaVersion() {
    gate.checkOpen();
    return adapter.schemaVersion();
  }

  /**
   * Subscribes {@code listener} to the adapter's events ({@link StoreEventSource#of}); also once the store is closed,
   * when there are none left to report, so that metrics bound late never fail.
   *
   * @throws dev.sessionstore.InvalidArgumentException naming {@code listener} if it is null
   */
  @Override
  public StoreEventSubscription subscribe(StoreEvents listener) {
    return StoreEventSource.of(adapter).subscribe(Arguments.requireNonNull("listener", listener));
  }

  /** The adapter's parked reads (0 if it is no source); also once the store is closed, for gauges read late. */
  @Override
  public int parkedReads() {
    return StoreEventSource.of(adapter).parkedReads();
  }

  /** The adapter's description: what it is and what it stores into. */
  @Override
  public String toString() {
    return adapter.toString();
  }

  /** Closes the layer, then the adapter, on the first call; later calls do nothing. */
  @Override
  public void close() {
    if (gate.close()) {
      adapter.close();
    }
  }
}
