package dev.sessionstore;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Tool calls that survive a kill (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#10">10</a>). Thread-safe. A tool call id is unique within its
 * session: every operation takes the session id and the call id, and the same call id in two sessions (or in a fork and
 * its parent) names two independent calls.
 *
 * <p>Resolution is a compare-and-set from {@link ToolCallStatus#PENDING}: exactly one of any number of concurrent
 * resolvers wins ({@link Resolution.Resolved}); a resolve of a call already stored with the same status and result is
 * {@link Resolution.Replayed}, any other resolve of an unknown, resolved or expired call is {@link Resolution.Stale}.
 * A deadline is held by the store, not by the caller's process: a pending call is due once the store's clock reaches
 * its deadline ({@code now >= deadline}); it then becomes {@link ToolCallStatus#EXPIRED} with a result saying why
 * (the same rule in every adapter), and every read from then on sees it expired, whether or not a
 * background sweep has run yet.
 *
 * <p>To register a call together with its tool_use event, or resolve one together with its tool_result event, use a
 * {@link Step}: the operations here commit alone.
 */
public interface ToolCalls {

  /**
   * Registers a pending tool call (with the write's deadline, if any) or updates a known one's descriptive fields (see
   * {@link ToolCallWrite}), and returns it as stored. Creates the session if unknown. Idempotent: saving the same
   * write again leaves one call and does not change its status, result or deadline.
   *
   * @throws NotFoundException              if the write names a requesting event the session's log does not hold
   * @throws UnsupportedCapabilityException if the write has a deadline and the store lacks
   *                                        {@link Capability#DEADLINES}
   */
  ToolCall save(ToolCallWrite call);

  /** The session's call with this id, or empty. A call whose deadline has passed is returned expired. */
  Optional<ToolCall> find(String sessionId, String toolCallId);

  /** The session's pending calls, oldest first (then by id); calls whose deadline has passed are not pending. */
  List<ToolCall> pending(String sessionId);

  /**
   * Resolves the session's call to {@code status} with {@code result} if it is pending.
   *
   * @param status {@link ToolCallStatus#COMPLETED}, {@link ToolCallStatus#FAILED} or
   *               {@link ToolCallStatus#CANCELLED}
   * @param result the result, or {@code null} for {@code {}}
   * @return {@link Resolution.Resolved} if this call made the transition; {@link Resolution.Replayed} if the call
   *     already holds this status and result (a retry: nothing written); {@link Resolution.Stale} otherwise,
   *     including an unknown call
   * @throws InvalidArgumentException if {@code status} is {@code PENDING} or {@code EXPIRED}
   */
  Resolution resolve(String sessionId, String toolCallId, ToolCallStatus status, Json result);

  /**
   * Waits up to {@code timeout} for the session's call to be resolved or expired, and returns it as stored: at once
   * if it already is, else as soon as a resolution or its deadline (by the store clock) ends it, from any writer the
   * store can see (other processes too when the store has {@link Capability#CROSS_PROCESS_WAKEUP}). An unknown call
   * is waited for like a pending one: it may be registered and resolved within the timeout. Returns empty when the
   * timeout passes first, or when the waiting thread is interrupted (its interrupt flag set again).
   *
   * <p>The wait outlives a backend it cannot reach until its timeout (guarantee 17): across a lost connection, a
   * database restart, or nodes and a quorum lost, it keeps reading again with a bounded backoff (at most a second
   * apart), returns the call as soon as the backend answers again and it is resolved or expired, and returns empty if
   * the timeout passes during the outage, as with the backend up (once a read in flight ends: at most the backend's
   * own connection or request timeout late). Only a failure that is not
   * {@linkplain StoreFailureException#isRetryable() retryable}, a closed store or bad input ends it early.
   *
   * @throws InvalidArgumentException if {@code timeout} is negative
   * @throws StoreFailureException    if the backend fails in a way that retrying cannot fix
   */
  Optional<ToolCall> await(String sessionId, String toolCallId, Duration timeout);

  /**
   * Sets the deadline of the session's pending call, replacing any earlier one.
   *
   * @return {@code true} if the call is pending and now expires at {@code deadline}; {@code false} if it is no longer
   *     pending (nothing changes)
   * @throws NotFoundException              if the session has no such call
   * @throws UnsupportedCapabilityException if the store lacks {@link Capability#DEADLINES}
   */
  boolean expireAt(String sessionId, String toolCallId, Instant deadline);

  /**
   * {@link #expireAt} the store clock's now plus {@code timeout}.
   *
   * @throws UnsupportedCapabilityException if the store lacks {@link Capability#DEADLINES}
   */
  boolean expireAfter(String sessionId, String toolCallId, Duration timeout);

  /**
   * Removes the deadline of the session's call.
   *
   * @return whether a pending call's deadline was removed; {@code false} for unknown or resolved calls
   * @throws UnsupportedCapabilityException if the store lacks {@link Capability#DEADLINES}
   */
  boolean cancelDeadline(String sessionId, String toolCallId);
}
