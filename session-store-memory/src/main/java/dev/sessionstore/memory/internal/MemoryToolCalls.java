package dev.sessionstore.memory.internal;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.Resolution;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.ToolCalls;
import dev.sessionstore.spi.Arguments;
import dev.sessionstore.spi.Expiry;
import dev.sessionstore.spi.IdOrder;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The tool calls of an in-memory store, kept by their session and changed only under its lock, which makes
 * resolution a compare-and-set from pending.
 *
 * <p>A deadline takes effect two ways. Every access first expires a pending call whose deadline the store clock has
 * reached, so a clock moved by hand is honoured by the very next read. And the {@link DeadlineScheduler} expires
 * it in real time, without any caller, once the clock reaches it.
 */
final class MemoryToolCalls implements ToolCalls {

  private static final Comparator<ToolCall> CREATION_ORDER =
      Comparator.comparing(ToolCall::createdAt).thenComparing(ToolCall::id, IdOrder.BY_CODE_POINT);

  private final StoreContext context;
  private final SessionRegistry registry;
  private final DeadlineScheduler deadlines;

  MemoryToolCalls(StoreContext context, SessionRegistry registry, DeadlineScheduler deadlines) {
    this.context = context;
    this.registry = registry;
    this.deadlines = deadlines;
  }

  @Override
  public ToolCall save(ToolCallWrite write) {
    context.checkOpen();
    Arguments.requireNonNull("toolCall", write);
    return registry.withCreatable(write.sessionId(), state -> {
      Instant now = context.now();
      registry.toolCallOwners.claim(write.id(), state.id);
      ToolCall call = write.applyTo(current(state, write.id(), now), now);
      registry.ensureExists(state, now);
      state.toolCalls.put(call.id(), call);
      return call;
    });
  }

  @Override
  public Optional<ToolCall> find(String toolCallId) {
    context.checkOpen();
    Arguments.requireKey("toolCallId", toolCallId);
    return withOwner(toolCallId, state -> Optional.ofNullable(current(state, toolCallId, context.now())),
        Optional::empty);
  }

  @Override
  public List<ToolCall> pending(String sessionId) {
    context.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    return registry.withExisting(sessionId, state -> {
      Instant now = context.now();
      List<ToolCall> pending = new ArrayList<>();
      for (String toolCallId : List.copyOf(state.toolCalls.keySet())) {
        ToolCall call = current(state, toolCallId, now);
        if (call.status() == ToolCallStatus.PENDING) {
          pending.add(call);
        }
      }
      pending.sort(CREATION_ORDER);
      return List.copyOf(pending);
    }, List::of);
  }

  @Override
  public Resolution resolve(String toolCallId, ToolCallStatus status, Json result) {
    context.checkOpen();
    Arguments.requireKey("toolCallId", toolCallId);
    Arguments.requireNonNull("status", status);
    if (status == ToolCallStatus.PENDING || status == ToolCallStatus.EXPIRED) {
      throw new InvalidArgumentException("status", "must be COMPLETED, FAILED or CANCELLED (was " + status + ")");
    }
    Json stored = result == null ? Json.emptyObject() : result;
    Resolution unknown = new Resolution.Stale(toolCallId, Optional.empty());
    return withOwner(toolCallId, state -> {
      Instant now = context.now();
      ToolCall call = current(state, toolCallId, now);
      if (call == null) {
        return unknown;
      }
      if (call.status() != ToolCallStatus.PENDING) {
        return new Resolution.Stale(toolCallId, Optional.of(call));
      }
      ToolCall resolved = call.resolvedAs(status, stored, now);
      state.toolCalls.put(toolCallId, resolved);
      deadlines.cancel(toolCallId);
      return new Resolution.Resolved(resolved);
    }, () -> unknown);
  }

  @Override
  public boolean expireAt(String toolCallId, Instant deadline) {
    context.checkOpen();
    Arguments.requireKey("toolCallId", toolCallId);
    Instant at = Arguments.requireInstant("deadline", deadline);
    Supplier<Boolean> unknown = () -> {
      throw new NotFoundException("tool call", toolCallId);
    };
    return withOwner(toolCallId, state -> {
      Instant now = context.now();
      ToolCall call = current(state, toolCallId, now);
      if (call == null) {
        return unknown.get();
      }
      if (call.status() != ToolCallStatus.PENDING) {
        return false;
      }
      state.toolCalls.put(toolCallId, call.withDeadline(at, now));
      deadlines.schedule(toolCallId, at, () -> expireIfDue(toolCallId));
      return true;
    }, unknown);
  }

  @Override
  public boolean expireAfter(String toolCallId, Duration timeout) {
    context.checkOpen();
    Arguments.requireKey("toolCallId", toolCallId);
    Arguments.requireNonNegative("timeout", timeout);
    Instant deadline;
    try {
      deadline = context.now().plus(timeout);
    } catch (DateTimeException | ArithmeticException tooLong) {
      throw new InvalidArgumentException("timeout", "too long: the deadline is past the end of time (" + timeout + ")");
    }
    return expireAt(toolCallId, deadline);
  }

  @Override
  public boolean cancelDeadline(String toolCallId) {
    context.checkOpen();
    Arguments.requireKey("toolCallId", toolCallId);
    return withOwner(toolCallId, state -> {
      Instant now = context.now();
      ToolCall call = current(state, toolCallId, now);
      if (call == null || call.status() != ToolCallStatus.PENDING || call.deadline() == null) {
        return false;
      }
      state.toolCalls.put(toolCallId, call.withDeadline(null, now));
      deadlines.cancel(toolCallId);
      return true;
    }, () -> false);
  }

  /** The scheduler's action: expires the call if the store clock has reached its deadline. */
  private void expireIfDue(String toolCallId) {
    withOwner(toolCallId, state -> current(state, toolCallId, context.now()), () -> null);
  }

  /**
   * The call as it stands at {@code now}, or {@code null} if the session has no such call: a pending call whose
   * deadline has come is expired first, and stays expired. The caller holds the session's lock.
   */
  private ToolCall current(SessionState state, String toolCallId, Instant now) {
    ToolCall call = state.toolCalls.get(toolCallId);
    if (call != null && call.status() == ToolCallStatus.PENDING && call.deadline() != null
        && !call.deadline().isAfter(now)) {
      call = call.resolvedAs(ToolCallStatus.EXPIRED, Expiry.result(call.deadline()), now);
      state.toolCalls.put(toolCallId, call);
      deadlines.cancel(toolCallId);
    }
    return call;
  }

  /**
   * Applies {@code action} under the lock of the session owning the call, or returns what {@code ifUnknown} supplies
   * when no session owns it.
   */
  private <T> T withOwner(String toolCallId, Function<SessionState, T> action, Supplier<T> ifUnknown) {
    String owner = registry.toolCallOwners.owner(toolCallId);
    return owner == null ? ifUnknown.get() : registry.withExisting(owner, action, ifUnknown);
  }
}
