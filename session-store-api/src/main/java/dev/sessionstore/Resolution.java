package dev.sessionstore;

import java.util.List;
import java.util.Optional;

/**
 * The outcome of resolving one tool call ({@link ToolCalls#resolve}, or a resolution inside a {@link Step}).
 * Resolution is a compare-and-set from {@link ToolCallStatus#PENDING} (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#10">10</a>): exactly one
 * of any number of concurrent resolvers makes the transition and gets {@link Resolved}.
 *
 * <p><b>Telling a replay from a conflict.</b> A resolve of a call that is no longer pending is
 * <ul>
 *   <li>{@link Replayed} when the call is stored with exactly the status and result asked for: the resolution already
 *       happened (typically this caller's own attempt whose outcome was unknown, retried), so the caller proceeds
 *       as if it had won; nothing is written;</li>
 *   <li>{@link Stale} otherwise (unknown id, resolved differently, expired, cancelled): a conflict; {@link
 *       Stale#current()} says what is stored, and nothing is written.</li>
 * </ul>
 * A stale outcome is an expected result, not an error.
 *
 * <p>Read it without a cast or a pattern switch (Java 17): {@link #toolCall()}, {@link #resolved()},
 * {@link #replayed()}, {@link #stale()}, or {@link #orElseThrow()} for the stored call of an applied resolution.
 */
public sealed interface Resolution permits Resolution.Resolved, Resolution.Replayed, Resolution.Stale {

  /** The id of the tool call this outcome is about. */
  String toolCallId();

  /** Whether this caller made the transition from pending ({@link Resolved} only). */
  boolean won();

  /**
   * Whether the call is now stored resolved as asked: {@link Resolved} or {@link Replayed}. A caller retrying after an
   * unknown outcome checks this rather than {@link #won()}.
   */
  boolean applied();

  /** The call as stored: the resolved call when {@link #applied()}, a stale outcome's {@code current} otherwise. */
  Optional<ToolCall> toolCall();

  /** This outcome when this caller made the transition, else empty. */
  default Optional<Resolved> resolved() {
    return this instanceof Resolved resolved ? Optional.of(resolved) : Optional.empty();
  }

  /** This outcome when the call already held this resolution, else empty. */
  default Optional<Replayed> replayed() {
    return this instanceof Replayed replayed ? Optional.of(replayed) : Optional.empty();
  }

  /** This outcome when it is a conflict, else empty. */
  default Optional<Stale> stale() {
    return this instanceof Stale stale ? Optional.of(stale) : Optional.empty();
  }

  /**
   * The call as stored, resolved as asked ({@link Resolved} or {@link Replayed}).
   *
   * @throws StaleResolutionException naming this outcome when it is {@link Stale}
   */
  default ToolCall orElseThrow() {
    if (this instanceof Stale conflict) {
      throw new StaleResolutionException(List.of(conflict));
    }
    return toolCall().orElseThrow();
  }

  /** This caller resolved the call; {@code call} is the stored result. */
  record Resolved(ToolCall call) implements Resolution {

    /**
     * Builds the record, checking its members as described on the type.
     * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
     */
    public Resolved {
      Checks.requireNonNull("call", call);
    }

    @Override
    public String toolCallId() {
      return call.id();
    }

    @Override
    public boolean won() {
      return true;
    }

    @Override
    public boolean applied() {
      return true;
    }

    @Override
    public Optional<ToolCall> toolCall() {
      return Optional.of(call);
    }
  }

  /**
   * The call was already resolved with exactly this status and result, so nothing was written; {@code call} is the
   * stored call. Re-submitting a resolution (or a {@link Step}) whose first outcome was unknown lands here.
   */
  record Replayed(ToolCall call) implements Resolution {

    /**
     * Builds the record, checking its members as described on the type.
     * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
     */
    public Replayed {
      Checks.requireNonNull("call", call);
    }

    @Override
    public String toolCallId() {
      return call.id();
    }

    @Override
    public boolean won() {
      return false;
    }

    @Override
    public boolean applied() {
      return true;
    }

    @Override
    public Optional<ToolCall> toolCall() {
      return Optional.of(call);
    }
  }

  /**
   * The call was not pending and is not stored resolved as asked: {@code current} is its stored state, or empty when
   * the session has no call with this id. Nothing was written.
   */
  record Stale(String toolCallId, Optional<ToolCall> current) implements Resolution {

    /**
     * Builds the record, checking its members as described on the type.
     * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
     */
    public Stale {
      Checks.requireKey("toolCallId", toolCallId);
      Checks.requireNonNull("current", current);
    }

    @Override
    public boolean won() {
      return false;
    }

    @Override
    public boolean applied() {
      return false;
    }

    @Override
    public Optional<ToolCall> toolCall() {
      return current;
    }
  }
}
