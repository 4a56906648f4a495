package dev.sessionstore.conformance.broken;

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
import dev.sessionstore.spi.StoredValues;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * A store that forwards every call to a correct delegate, except for the aggregates, step commit and close it was given
 * replacements for. A broken store is the correct store with one method changed:
 *
 * <pre>{@code
 * ForwardingStore.of(correct).withRuns(runs -> new ForwardingRuns(runs) {
 *   public Optional<Run> find(String runId) { ... }
 * });
 * }</pre>
 *
 * <p>Immutable: each {@code with...} returns a new store. A replacement is built once, when {@code with...} is
 * called, from the aggregate it replaces, and the store hands out that one instance on every call, so whatever state
 * the replacement keeps (a cache, a side table) lasts as long as the store. Aggregates that are not replaced are
 * fetched from the delegate on every call.
 */
public final class ForwardingStore implements SessionStore {

  private final SessionStore delegate;
  /** The replaced aggregates, keyed by their interface. */
  private final Map<Class<?>, Object> replacements;
  private final Function<Step, StepOutcome> commit;
  private final Runnable close;

  private ForwardingStore(SessionStore delegate, Map<Class<?>, Object> replacements,
      Function<Step, StepOutcome> commit, Runnable close) {
    this.delegate = delegate;
    this.replacements = replacements;
    this.commit = commit;
    this.close = close;
  }

  /** A store that forwards everything to {@code delegate}. */
  public static ForwardingStore of(SessionStore delegate) {
    return new ForwardingStore(delegate, Map.of(), delegate::commit, delegate::close);
  }

  /** This store with its sessions replaced by {@code replace} applied to the current ones. */
  public ForwardingStore withSessions(UnaryOperator<Sessions> replace) {
    return replacing(Sessions.class, replace.apply(sessions()));
  }

  /** This store with its event log replaced by {@code replace} applied to the current one. */
  public ForwardingStore withEvents(UnaryOperator<EventLog> replace) {
    return replacing(EventLog.class, replace.apply(events()));
  }

  /** This store with its runs replaced by {@code replace} applied to the current ones. */
  public ForwardingStore withRuns(UnaryOperator<Runs> replace) {
    return replacing(Runs.class, replace.apply(runs()));
  }

  /** This store with its tool calls replaced by {@code replace} applied to the current ones. */
  public ForwardingStore withToolCalls(UnaryOperator<ToolCalls> replace) {
    return replacing(ToolCalls.class, replace.apply(toolCalls()));
  }

  /** This store with its retention replaced by {@code replace} applied to the current one. */
  public ForwardingStore withRetention(UnaryOperator<Retention> replace) {
    return replacing(Retention.class, replace.apply(retention()));
  }

  /** This store with its summaries replaced by {@code replace} applied to the current ones. */
  public ForwardingStore withSummaries(UnaryOperator<Summaries> replace) {
    return replacing(Summaries.class, replace.apply(summaries()));
  }

  /** This store with its checkpoints replaced by {@code replace} applied to the current ones. */
  public ForwardingStore withCheckpoints(UnaryOperator<Checkpoints> replace) {
    return replacing(Checkpoints.class, replace.apply(checkpoints()));
  }

  /** This store with its model-call audit replaced by {@code replace} applied to the current one. */
  public ForwardingStore withModelCalls(UnaryOperator<ModelCallAudit> replace) {
    return replacing(ModelCallAudit.class, replace.apply(modelCalls()));
  }

  /** This store with its archives replaced by {@code replace} applied to the current ones. */
  public ForwardingStore withArchives(UnaryOperator<Archives> replace) {
    return replacing(Archives.class, replace.apply(archives()));
  }

  /** This store with its search replaced by {@code replace} applied to the current one. */
  public ForwardingStore withSearch(UnaryOperator<Search> replace) {
    return replacing(Search.class, replace.apply(search()));
  }

  /** This store with its stored values ({@link #unwrap}) replaced by {@code replace} applied to the delegate's. */
  public ForwardingStore withStoredValues(UnaryOperator<StoredValues> replace) {
    return replacing(StoredValues.class, replace.apply(delegate.unwrap(StoredValues.class).orElseThrow()));
  }

  /** This store with {@code commit} in place of the delegate's step commit. */
  public ForwardingStore withCommit(Function<Step, StepOutcome> commit) {
    return new ForwardingStore(delegate, replacements, commit, close);
  }

  /**
   * This store with {@code close} run in place of the delegate's close; {@code close} receives the delegate, to
   * close it or not.
   */
  public ForwardingStore withClose(Consumer<SessionStore> close) {
    return new ForwardingStore(delegate, replacements, commit, () -> close.accept(delegate));
  }

  @Override
  public Sessions sessions() {
    return aggregate(Sessions.class, delegate::sessions);
  }

  @Override
  public EventLog events() {
    return aggregate(EventLog.class, delegate::events);
  }

  @Override
  public Runs runs() {
    return aggregate(Runs.class, delegate::runs);
  }

  @Override
  public ToolCalls toolCalls() {
    return aggregate(ToolCalls.class, delegate::toolCalls);
  }

  @Override
  public Summaries summaries() {
    return aggregate(Summaries.class, delegate::summaries);
  }

  @Override
  public Checkpoints checkpoints() {
    return aggregate(Checkpoints.class, delegate::checkpoints);
  }

  @Override
  public ModelCallAudit modelCalls() {
    return aggregate(ModelCallAudit.class, delegate::modelCalls);
  }

  @Override
  public Archives archives() {
    return aggregate(Archives.class, delegate::archives);
  }

  @Override
  public Retention retention() {
    return aggregate(Retention.class, delegate::retention);
  }

  @Override
  public Search search() {
    return aggregate(Search.class, delegate::search);
  }

  @Override
  public StepOutcome commit(Step step) {
    return commit.apply(step);
  }

  @Override
  public Set<Capability> capabilities() {
    return delegate.capabilities();
  }

  @Override
  public void close() {
    close.run();
  }

  /** A replacement given for {@code type}, else the delegate's answer. */
  @Override
  public <T> Optional<T> unwrap(Class<T> type) {
    Object replacement = replacements.get(type);
    return replacement == null ? delegate.unwrap(type) : Optional.of(type.cast(replacement));
  }

  private <T> ForwardingStore replacing(Class<T> type, T replacement) {
    Map<Class<?>, Object> replaced = new HashMap<>(replacements);
    replaced.put(type, replacement);
    return new ForwardingStore(delegate, Map.copyOf(replaced), commit, close);
  }

  private <T> T aggregate(Class<T> type, Supplier<T> fromDelegate) {
    Object replacement = replacements.get(type);
    return replacement == null ? fromDelegate.get() : type.cast(replacement);
  }
}
