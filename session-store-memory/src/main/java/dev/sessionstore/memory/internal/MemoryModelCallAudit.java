package dev.sessionstore.memory.internal;

import dev.sessionstore.ModelCall;
import dev.sessionstore.ModelCallAudit;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.spi.Timeouts;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The model-call audit of an in-memory store: rows live with their session ordered by turn, and go with it. When the
 * store was built without the audit, nothing is recorded and every listing is empty.
 */
final class MemoryModelCallAudit implements ModelCallAudit {

  private final StoreContext context;
  private final SessionRegistry registry;
  private final boolean enabled;

  MemoryModelCallAudit(StoreContext context, SessionRegistry registry, boolean enabled) {
    this.context = context;
    this.registry = registry;
    this.enabled = enabled;
  }

  @Override
  public boolean enabled() {
    return enabled;
  }

  @Override
  public boolean record(String sessionId, NewModelCall call) {
    if (!enabled) {
      return false;
    }
    return registry.withCreatable(sessionId, state -> {
      Instant now = context.now();
      registry.ensureExists(state, now);
      store(state, call, now);
      return true;
    });
  }

  /**
   * Stores {@code call} as recorded at {@code now} in {@code state}, whose lock the caller holds, and returns the row;
   * empty, storing nothing, while the audit is off.
   */
  Optional<ModelCall> store(SessionState state, NewModelCall call, Instant now) {
    if (!enabled) {
      return Optional.empty();
    }
    ModelCall row = new ModelCall(state.id, call.turn(), call.model(), call.context(), call.usage(), now);
    state.modelCalls.put(call.turn(), row);
    return Optional.of(row);
  }

  @Override
  public List<ModelCall> list(String sessionId) {
    if (!enabled) {
      return List.of();
    }
    return registry.withExisting(sessionId, state -> List.copyOf(state.modelCalls.values()), List::of);
  }

  @Override
  public int deleteOlderThan(String sessionId, Duration age) {
    Instant cutoff = cutoff(age);
    return registry.withExisting(sessionId, state -> deleteBefore(state, cutoff), () -> 0);
  }

  @Override
  public int deleteOlderThan(Duration age) {
    Instant cutoff = cutoff(age);
    int deleted = 0;
    for (SessionState state : registry.all()) {
      deleted += registry.withExisting(state.id, current -> deleteBefore(current, cutoff), () -> 0);
    }
    return deleted;
  }

  /** The instant {@code age} before now by the store clock; rows recorded before it are older than {@code age}. */
  private Instant cutoff(Duration age) {
    return Timeouts.cutoff(context.now(), age);
  }

  /** How many of the session's rows were recorded before {@code cutoff}; the caller holds its lock. */
  int countBefore(SessionState state, Instant cutoff) {
    return enabled ? (int) state.modelCalls.values().stream().filter(row -> row.recordedAt().isBefore(cutoff)).count()
        : 0;
  }

  /** Removes the session's rows recorded before {@code cutoff}; the caller holds its lock. Returns how many. */
  static int deleteBefore(SessionState state, Instant cutoff) {
    int before = state.modelCalls.size();
    state.modelCalls.values().removeIf(row -> row.recordedAt().isBefore(cutoff));
    return before - state.modelCalls.size();
  }
}
