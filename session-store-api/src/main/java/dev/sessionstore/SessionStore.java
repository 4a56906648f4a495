package dev.sessionstore;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * A store of agent conversations: sessions with their append-only event logs, runs, tool calls, summaries,
 * checkpoints and model-call audit, behind one object, with their lossless export and import
 * ({@link #archives()}). Every adapter gives the guarantees of the session-store contract (<a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html">guarantees 1–21</a>), proven
 * by the conformance kit; each aggregate interface documents the ones it carries.
 *
 * <p>Everything a store returns is immutable: records, and lists that cannot be modified, so a caller can never
 * change stored data or another caller's view through a returned value.
 *
 * <p>Thread-safe: one instance is meant to be shared by the whole application.
 *
 * <p><b>Bad input</b> (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#15">15</a>). Every operation of the store and of its aggregates checks
 * its arguments before anything is read or written, with the same rules in every adapter: a rejected argument fails
 * with {@link InvalidArgumentException} naming it ({@link InvalidArgumentException#field()}), and nothing is written.
 *
 * <p><b>Closing.</b> {@link #close()} releases the store's resources (threads, connections) and is idempotent. From
 * the moment it is called, every operation of the store, of every aggregate it handed out (also those obtained
 * before) and {@link #commit} fails with {@link StoreClosedException}; only {@code close()} and {@code toString()}
 * still answer. A waiting read ({@link EventLog#await}) or tool-call wait ({@link ToolCalls#await}) that is blocked
 * when the store is closed is released promptly, not left to its timeout, and throws {@link StoreClosedException}; a
 * wait that already has its answer returns it. Other calls already running are not interrupted.
 */
public interface SessionStore extends AutoCloseable {

  /** Sessions: create, read, update, list, fork and delete them. Every store has them. */
  Sessions sessions();

  /** The sessions' event logs: append, read, wait for and truncate. Every store has them. */
  EventLog events();

  /** The runs of sessions: record and read them. Every store has them. */
  Runs runs();

  /** @throws UnsupportedCapabilityException if the store lacks {@link Capability#TOOL_CALLS} */
  ToolCalls toolCalls();

  /** @throws UnsupportedCapabilityException if the store lacks {@link Capability#SUMMARIES} */
  Summaries summaries();

  /** @throws UnsupportedCapabilityException if the store lacks {@link Capability#CHECKPOINTS} */
  Checkpoints checkpoints();

  /** @throws UnsupportedCapabilityException if the store lacks {@link Capability#MODEL_CALL_AUDIT} */
  ModelCallAudit modelCalls();

  /** @throws UnsupportedCapabilityException if the store lacks {@link Capability#ARCHIVES} */
  Archives archives();

  /** @throws UnsupportedCapabilityException if the store lacks {@link Capability#RETENTION} */
  Retention retention();

  /**
   * Finds events by their words (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#21">21</a>). The default is a store without
   * {@link Capability#SEARCH}: adapters that declare it override this.
   *
   * @throws UnsupportedCapabilityException if the store lacks {@link Capability#SEARCH}
   */
  default Search search() {
    throw new UnsupportedCapabilityException(Capability.SEARCH);
  }

  /**
   * Commits one agent step atomically: every member of {@code step} is stored, or none is (guarantee
   * <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#16">16</a>). See {@link Step} for the order members apply in, the expected-seq rule and what a retry does.
   *
   * <p>Concurrency: steps and single writes on one session are serialized; of any number of concurrent steps
   * expecting the same last seq and storing new events, exactly one commits. Idempotency: re-submitting a step whose
   * outcome is unknown stores nothing twice and returns what is stored ({@link Resolution.Replayed} for a resolution
   * the call already holds). An unknown session is created, except by a step that cuts its log.
   *
   * @return {@link StepOutcome.Committed} with what was stored, or {@link StepOutcome.Rejected} naming the stale
   *     resolutions when a resolution found its call neither pending nor resolved as asked (nothing stored)
   * @throws SeqConflictException           if the step changes the log and the log does not end at its expected seq
   * @throws DuplicateEventException        if an event id is stored with different content
   * @throws ConflictException              if the session write takes a name another session has
   * @throws NotFoundException              if the step cuts the log of an unknown session, names an unknown tool call
   *                                        in a deadline change, or a requesting event the log does not hold
   * @throws InvalidArgumentException       if the step is null, or a member is invalid against the stored state
   *                                        (a summary past the log's end)
   * @throws UnsupportedCapabilityException if the step uses a capability the store lacks (a fence, a tenant, a cut,
   *                                        tool calls, deadlines, a summary, checkpoints, a model call); the step
   *                                        is refused whole and nothing is stored
   */
  StepOutcome commit(Step step);

  /** The optional capabilities this store supports. */
  Set<Capability> capabilities();

  /** Whether this store supports {@code capability}. */
  default boolean supports(Capability capability) {
    return capabilities().contains(capability);
  }

  /**
   * This store, or the store it decorates (through any number of decorators that pass it on), as {@code type}: the
   * way a decorator reaches an adapter's SPI hook (such as {@code dev.sessionstore.spi.StoredValues}, declared by
   * {@link Capability#STORED_VALUE_REWRITE}). Empty when no store in the chain is a {@code type}, or a decorator in
   * between keeps it to itself because it changes what lies below. The default answers for this object only.
   *
   * @throws InvalidArgumentException naming {@code type} if it is null
   */
  default <T> Optional<T> unwrap(Class<T> type) {
    Checks.requireNonNull("type", type);
    return type.isInstance(this) ? Optional.of(type.cast(this)) : Optional.empty();
  }

  /**
   * The version of the schema this store reads and writes in its backend, fixed when the store was built: the version
   * its build created, migrated to or verified (a newer one, when a newer library recorded it and this one accepts
   * it). Asking costs no round trip. Versions count per adapter (a JDBC store's last applied migration, a Cassandra
   * keyspace's schema version) and compare only within one adapter. Empty for a store with no schema of its own,
   * such as the in-memory store; the default, for such adapters. Decorators answer their delegate's.
   *
   * @throws StoreClosedException if the store is closed (every store behind the validating layer)
   */
  default OptionalInt schemaVersion() {
    return OptionalInt.empty();
  }

  /**
   * Releases the store's resources and releases every blocked wait; from then on every operation fails with
   * {@link StoreClosedException}. Idempotent: closing again does nothing.
   */
  @Override
  void close();
}
