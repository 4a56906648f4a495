package dev.sessionstore;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Tool calls that survive a kill (SPEC guarantee 10). Thread-safe.
 *
 * <p>Resolution is a compare-and-set from {@link ToolCallStatus#PENDING}: exactly one of any number of concurrent
 * resolvers wins; the others, and any resolve of an unknown, resolved or expired call, get {@link Resolution.Stale}.
 * A deadline is held by the store, not by the caller's process: a pending call is due once the store's clock reaches
 * its deadline ({@code now >= deadline}); it then becomes {@link ToolCallStatus#EXPIRED} with a result saying why
 * ({@link dev.sessionstore.spi.Expiry#result}), and every read from then on sees it expired, whether or not a
 * background sweep has run yet.
 */
public interface ToolCalls {

  /** Registers a pending tool call or updates a known one's descriptive fields (see {@link ToolCallWrite}). */
  ToolCall save(ToolCallWrite call);

  /** The call with this id, or empty. A call whose deadline has passed is returned expired. */
  Optional<ToolCall> find(String toolCallId);

  /** The session's pending calls, oldest first; calls whose deadline has passed are not pending. */
  List<ToolCall> pending(String sessionId);

  /**
   * Resolves the call to {@code status} with {@code result} if it is pending.
   *
   * @param status {@link ToolCallStatus#COMPLETED}, {@link ToolCallStatus#FAILED} or
   *               {@link ToolCallStatus#CANCELLED}
   * @param result the result, or {@code null} for {@code {}}
   * @throws InvalidArgumentException if {@code status} is {@code PENDING} or {@code EXPIRED}
   */
  Resolution resolve(String toolCallId, ToolCallStatus status, Json result);

  /**
   * Sets the deadline of a pending call, replacing any earlier one.
   *
   * @return {@code true} if the call is pending and now expires at {@code deadline}; {@code false} if it is no longer
   *     pending (nothing changes)
   * @throws NotFoundException              if the call is unknown
   * @throws UnsupportedCapabilityException if the store lacks {@link Capability#DEADLINES}
   */
  boolean expireAt(String toolCallId, Instant deadline);

  /** {@link #expireAt} the store clock's now plus {@code timeout}. */
  boolean expireAfter(String toolCallId, Duration timeout);

  /**
   * Removes the deadline of a call.
   *
   * @return whether a pending call's deadline was removed; {@code false} for unknown or resolved calls
   */
  boolean cancelDeadline(String toolCallId);
}
