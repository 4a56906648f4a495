package dev.sessionstore.memory.internal;

import dev.sessionstore.Event;
import dev.sessionstore.Json;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.Resolution;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallResolution;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.ToolCalls;
import dev.sessionstore.spi.Arguments;
import dev.sessionstore.spi.Failures;
import dev.sessionstore.spi.IdOrder;
import dev.sessionstore.spi.Timeouts;
import dev.sessionstore.spi.ToolCallTransitions;
import dev.sessionstore.spi.Upserts;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The tool calls of an in-memory store, kept by their session (ids are scoped by session) and changed only under its
 * lock, which makes resolution a compare-and-set from pending.
 *
 * <p>A deadline takes effect two ways. Every access first expires a pending call whose deadline the store clock has
 * reached, so a clock moved by hand is honoured by the very next read. And the {@link DeadlineScheduler} expires
 * it in real time, without any caller, once the clock reaches it. Every resolution and expiry signals the session's
 * {@code toolCallsChanged} condition, on which {@link #await} sleeps; a waiter on a call with a deadline also wakes
 * every {@link #CLOCK_RECHECK} to ask the store clock, so a clock moved by hand ends its wait.
 */
final class MemoryToolCalls implements ToolCalls {

  /** How often a waiter on a call with a deadline re-reads the store clock. */
  static final Duration CLOCK_RECHECK = Duration.ofMillis(20);

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
    return registry.withCreatable(write.sessionId(), state -> {
      Instant now = context.now();
      requireRequestEvent(state, write.requestEventId(), event -> true);
      ToolCall call = Upserts.toolCall(write, current(state, write.id(), now), now);
      registry.ensureExists(state, now);
      store(state, call);
      return call;
    });
  }

  /**
   * Fails unless {@code eventId} is {@code null} or names an event of the session's log that {@code survives}.
   *
   * @throws NotFoundException for kind {@code "event"}
   */
  static void requireRequestEvent(SessionState state, String eventId, Predicate<Event> survives) {
    if (eventId == null) {
      return;
    }
    Event event = state.log.find(eventId);
    if (event == null || !survives.test(event)) {
      throw Failures.eventNotFound(state.id, eventId);
    }
  }

  /**
   * Stores {@code call} as the session's, arming or disarming its deadline timer to match, and wakes waiters when it
   * is no longer pending. The caller holds the lock.
   */
  void store(SessionState state, ToolCall call) {
    state.toolCalls.put(call.id(), call);
    String key = DeadlineScheduler.key(state.id, call.id());
    if (call.status() == ToolCallStatus.PENDING && call.deadline() != null) {
      String sessionId = state.id;
      String toolCallId = call.id();
      deadlines.schedule(key, call.deadline(), () -> expireIfDue(sessionId, toolCallId));
    } else {
      deadlines.cancel(key);
    }
    if (call.status() != ToolCallStatus.PENDING) {
      state.signalToolCallsChanged();
    }
  }

  @Override
  public Optional<ToolCall> find(String sessionId, String toolCallId) {
    return registry.withExisting(sessionId, state -> Optional.ofNullable(current(state, toolCallId, context.now())),
        Optional::empty);
  }

  @Override
  public List<ToolCall> pending(String sessionId) {
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
  public Resolution resolve(String sessionId, String toolCallId, ToolCallStatus status, Json result) {
    ToolCallResolution asked = new ToolCallResolution(toolCallId, status, result);
    return registry.withExisting(sessionId, state -> resolve(state, asked, context.now()),
        () -> new Resolution.Stale(toolCallId, Optional.empty()));
  }

  /** Resolves as {@code asked} under the session's lock, held by the caller. */
  Resolution resolve(SessionState state, ToolCallResolution asked, Instant now) {
    ToolCall call = current(state, asked.toolCallId(), now);
    Optional<Resolution> settled = ToolCallTransitions.settled(asked.toolCallId(), call, asked.status(),
        asked.result());
    if (settled.isPresent()) {
      return settled.get();
    }
    ToolCall resolved = ToolCallTransitions.resolved(call, asked.status(), asked.result(), now);
    store(state, resolved);
    return new Resolution.Resolved(resolved);
  }

  @Override
  public Optional<ToolCall> await(String sessionId, String toolCallId, Duration timeout) {
    long deadlineNanos = System.nanoTime() + Timeouts.nanos(timeout);
    while (true) {
      SessionState state = registry.lockLive(sessionId);
      state.addWaiter();
      boolean parked = false;
      boolean woken = false;
      long signalledAt = 0;
      try {
        while (!state.isRemoved()) {
          ToolCall call = state.exists() ? current(state, toolCallId, context.now()) : null;
          if (call != null && call.status() != ToolCallStatus.PENDING) {
            woken = parked;
            signalledAt = state.toolCallsChangedAtNanos();
            return Optional.of(call);
          }
          long remaining = deadlineNanos - System.nanoTime();
          if (remaining <= 0 || context.isClosed()) {
            return Optional.empty();
          }
          long wait = call != null && call.deadline() != null
              ? Math.min(remaining, CLOCK_RECHECK.toNanos()) : remaining;
          parked = true;
          context.events().readParked();
          try {
            state.toolCallsChanged.awaitNanos(wait);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
          } finally {
            context.events().readUnparked();
          }
        }
      } finally {
        state.removeWaiter();
        registry.discardIfUnused(state);
        state.lock.unlock();
        if (woken) {
          context.readWokenSince(signalledAt);
        }
      }
    }
  }

  @Override
  public boolean expireAt(String sessionId, String toolCallId, Instant deadline) {
    return registry.withExisting(sessionId, state -> changeDeadline(state, toolCallId, deadline, context.now()), () -> {
      throw Failures.toolCallNotFound(sessionId, toolCallId);
    });
  }

  /**
   * Sets ({@code at} non-null) or removes the deadline of a pending call under the lock held by the caller.
   *
   * @return whether the call is pending (and so changed)
   * @throws NotFoundException if the session has no such call
   */
  boolean changeDeadline(SessionState state, String toolCallId, Instant at, Instant now) {
    ToolCall call = current(state, toolCallId, now);
    if (call == null) {
      throw Failures.toolCallNotFound(state.id, toolCallId);
    }
    if (call.status() != ToolCallStatus.PENDING) {
      return false;
    }
    store(state, ToolCallTransitions.withDeadline(call, at, now));
    return true;
  }

  @Override
  public boolean expireAfter(String sessionId, String toolCallId, Duration timeout) {
    return expireAt(sessionId, toolCallId, Arguments.requireInstant("deadline",
        Timeouts.deadlineAfter(context.now(), timeout)));
  }

  @Override
  public boolean cancelDeadline(String sessionId, String toolCallId) {
    return registry.withExisting(sessionId, state -> {
      ToolCall call = current(state, toolCallId, context.now());
      if (call == null || call.deadline() == null) {
        return false;
      }
      return changeDeadline(state, toolCallId, null, context.now());
    }, () -> false);
  }

  /**
   * The scheduler's action: expires the call if the store clock has reached its deadline, and reports the deadline
   * fired (after the session's lock is let go) when this very action expired it.
   */
  private void expireIfDue(String sessionId, String toolCallId) {
    boolean fired = registry.withExisting(sessionId, state -> {
      ToolCall before = state.toolCalls.get(toolCallId);
      return before != null && before.status() == ToolCallStatus.PENDING
          && current(state, toolCallId, context.now()).status() == ToolCallStatus.EXPIRED;
    }, () -> false);
    if (fired) {
      context.events().deadlineFired();
    }
  }

  /**
   * The call as it stands at {@code now}, or {@code null} if the session has no such call: a pending call whose
   * deadline has come is expired first, and stays expired. The caller holds the session's lock.
   */
  ToolCall current(SessionState state, String toolCallId, Instant now) {
    ToolCall call = state.toolCalls.get(toolCallId);
    if (call != null && ToolCallTransitions.isDue(call, now)) {
      call = ToolCallTransitions.expired(call, now);
      store(state, call);
    }
    return call;
  }
}
