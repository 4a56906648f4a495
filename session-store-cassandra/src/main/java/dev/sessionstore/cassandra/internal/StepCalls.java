package dev.sessionstore.cassandra.internal;

import dev.sessionstore.DeadlineChange;
import dev.sessionstore.Event;
import dev.sessionstore.Resolution;
import dev.sessionstore.Step;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallResolution;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.spi.Failures;
import dev.sessionstore.spi.ToolCallTransitions;
import dev.sessionstore.spi.Upserts;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The tool-call part of one attempt at a step, decided in memory against the calls as the attempt read them, with
 * the shared rules ({@link Upserts#toolCall}, {@link ToolCallTransitions}) in the order of {@link Step}: a due call
 * is expired first, then the cut drops the links to the events it removes, then registrations, resolutions (the
 * compare-and-set from pending, made atomic by the batch's condition on the head) and deadline changes. Not
 * thread-safe: one per attempt.
 */
final class StepCalls {

  private final String sessionId;
  private final Instant now;
  private final Map<String, ToolCall> stored;
  private final Map<String, ToolCall> before = new HashMap<>();
  private final Map<String, ToolCall> expired = new LinkedHashMap<>();
  private final Map<String, ToolCall> changed = new LinkedHashMap<>();
  private final List<String> registeredIds = new ArrayList<>();
  private final List<Resolution> resolutions = new ArrayList<>();

  /** The calls of one attempt, {@code stored} as read (by id), at {@code now} by the store clock. */
  StepCalls(String sessionId, Map<String, ToolCall> stored, Instant now) {
    this.sessionId = sessionId;
    this.now = now;
    this.stored = stored;
    stored.forEach((id, call) -> {
      if (ToolCallTransitions.isDue(call, now)) {
        ToolCall gone = ToolCallTransitions.expired(call, now);
        expired.put(id, gone);
        changed.put(id, gone);
        before.put(id, gone);
      } else {
        before.put(id, call);
      }
    });
  }

  /**
   * Drops the link of every call in {@code all} (the session's calls) whose requesting event is among
   * {@code removed} and not appended again by the step ({@code appended}).
   */
  void unlinkCut(List<Event> removed, List<Event> appended, Collection<ToolCall> all) {
    Set<String> gone = new HashSet<>();
    removed.forEach(event -> gone.add(event.id()));
    appended.forEach(event -> gone.remove(event.id()));
    for (ToolCall call : all) {
      ToolCall current = current(call.id(), call);
      if (current.requestEventId() != null && gone.contains(current.requestEventId())) {
        changed.put(call.id(), ToolCallTransitions.withoutRequestEvent(current));
      }
    }
  }

  /**
   * Applies the step's registrations, resolutions and deadline changes.
   *
   * @return the stale resolutions, in step order: when any, the step is rejected
   * @throws dev.sessionstore.NotFoundException if a deadline change names an unknown call
   */
  List<Resolution.Stale> apply(Step step) {
    for (ToolCallWrite write : step.toolCalls()) {
      ToolCall call = Upserts.toolCall(write, current(write.id(), null), now);
      changed.put(call.id(), call);
      registeredIds.add(call.id());
    }
    List<Resolution.Stale> stale = new ArrayList<>();
    for (ToolCallResolution asked : step.resolutions()) {
      ToolCall call = current(asked.toolCallId(), null);
      Optional<Resolution> settled = ToolCallTransitions.settled(asked.toolCallId(), call, asked.status(),
          asked.result());
      if (settled.isEmpty()) {
        ToolCall resolved = ToolCallTransitions.resolved(call, asked.status(), asked.result(), now);
        changed.put(resolved.id(), resolved);
        resolutions.add(new Resolution.Resolved(resolved));
      } else if (settled.get() instanceof Resolution.Stale staleOne) {
        stale.add(staleOne);
      } else {
        resolutions.add(settled.get());
      }
    }
    if (!stale.isEmpty()) {
      return stale;
    }
    for (DeadlineChange change : step.deadlines()) {
      ToolCall call = current(change.toolCallId(), null);
      if (call == null) {
        throw Failures.toolCallNotFound(sessionId, change.toolCallId());
      }
      if (call.status() == ToolCallStatus.PENDING) {
        changed.put(call.id(), ToolCallTransitions.withDeadline(call, change.deadline(), now));
      }
    }
    return stale;
  }

  /** The call as the step has made it so far, else as it stood before the step, else {@code fallback}. */
  private ToolCall current(String toolCallId, ToolCall fallback) {
    ToolCall call = changed.get(toolCallId);
    if (call != null) {
      return call;
    }
    call = before.get(toolCallId);
    return call != null ? call : fallback;
  }

  /** Whether the step changes any call (an expiry included). */
  boolean changes() {
    return !changed.isEmpty();
  }

  /** The calls to write, each as it is after the step. */
  Collection<ToolCall> changed() {
    return changed.values();
  }

  /** The calls the attempt found due and expired. */
  Collection<ToolCall> expired() {
    return expired.values();
  }

  /** The named calls as they stood before the step (a due one expired), by id. */
  Map<String, ToolCall> before() {
    return Map.copyOf(before);
  }

  /** One call per registration, in step order, as stored after the whole step. */
  List<ToolCall> registered() {
    return registeredIds.stream().map(changed::get).toList();
  }

  /** One outcome per resolution, in step order. */
  List<Resolution> resolutions() {
    return List.copyOf(resolutions);
  }

  /** The pending calls whose deadline the step sets anew: the hints a sweep needs, by call. */
  List<ToolCall> newDeadlines() {
    List<ToolCall> due = new ArrayList<>();
    for (ToolCall call : changed.values()) {
      ToolCall was = stored.get(call.id());
      if (call.status() == ToolCallStatus.PENDING && call.deadline() != null
          && (was == null || !Objects.equals(was.deadline(), call.deadline()))) {
        due.add(call);
      }
    }
    return due;
  }
}
