package dev.sessionstore;

import java.util.Set;

/**
 * A store of agent conversations: sessions with their append-only event logs, runs, tool calls, summaries,
 * checkpoints and model-call audit, behind one object. Every adapter gives the guarantees of the session-store
 * contract (SPEC.md), proven by the conformance kit; each aggregate interface documents the ones it carries.
 *
 * <p>Everything a store returns is immutable: records, and lists that cannot be modified, so a caller can never
 * change stored data or another caller's view through a returned value.
 *
 * <p>Thread-safe: one instance is meant to be shared by the whole application. Closing it releases its resources
 * (threads, connections); using it after {@link #close()} fails with {@link IllegalStateException}.
 */
public interface SessionStore extends AutoCloseable {

  Sessions sessions();

  EventLog events();

  Runs runs();

  /** @throws UnsupportedCapabilityException if the store lacks {@link Capability#TOOL_CALLS} */
  ToolCalls toolCalls();

  /** @throws UnsupportedCapabilityException if the store lacks {@link Capability#SUMMARIES} */
  Summaries summaries();

  /** @throws UnsupportedCapabilityException if the store lacks {@link Capability#CHECKPOINTS} */
  Checkpoints checkpoints();

  /** @throws UnsupportedCapabilityException if the store lacks {@link Capability#MODEL_CALL_AUDIT} */
  ModelCallAudit modelCalls();

  /**
   * Persists the session, run and events of one execution atomically: after a failure none of it is visible
   * (SPEC guarantee 4). Events follow the rules of {@link EventLog#appendAll}, including the expected last seq.
   *
   * @throws SeqConflictException    if the flush expects a last seq the log does not end at
   * @throws DuplicateEventException if an event id is reused with different content
   * @throws ConflictException       if the session name is taken or the run belongs to another session
   */
  FlushResult flush(Flush flush);

  /** The optional capabilities this store supports. */
  Set<Capability> capabilities();

  /** Whether this store supports {@code capability}. */
  default boolean supports(Capability capability) {
    return capabilities().contains(capability);
  }

  /** Releases the store's resources. Idempotent. */
  @Override
  void close();
}
