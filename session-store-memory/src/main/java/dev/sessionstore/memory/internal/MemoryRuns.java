package dev.sessionstore.memory.internal;

import dev.sessionstore.Run;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.Runs;
import dev.sessionstore.spi.IdOrder;
import dev.sessionstore.spi.Upserts;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The runs of an in-memory store, kept by their session (run ids are scoped by session) in the order they were last
 * updated, so that the active run is the last active one even when the clock does not move between saves.
 */
final class MemoryRuns implements Runs {

  private static final Comparator<Run> CREATION_ORDER =
      Comparator.comparing(Run::createdAt).thenComparing(Run::id, IdOrder.BY_CODE_POINT);

  private final StoreContext context;
  private final SessionRegistry registry;

  MemoryRuns(StoreContext context, SessionRegistry registry) {
    this.context = context;
    this.registry = registry;
  }

  @Override
  public Run save(RunWrite write) {
    return registry.withCreatable(write.sessionId(), state -> {
      Instant now = context.now();
      Run run = merge(state, write, now);
      registry.ensureExists(state, now);
      store(state, run);
      return run;
    });
  }

  /** The run {@code write} makes of the session's stored one, not stored yet; the caller holds the lock. */
  Run merge(SessionState state, RunWrite write, Instant now) {
    return Upserts.run(write, state.runs.get(write.id()), now);
  }

  /** Stores a merged run as the session's most recently updated run. */
  void store(SessionState state, Run run) {
    state.runs.remove(run.id());
    state.runs.put(run.id(), run);
  }

  @Override
  public Optional<Run> find(String sessionId, String runId) {
    return registry.withExisting(sessionId, state -> Optional.ofNullable(state.runs.get(runId)), Optional::empty);
  }

  @Override
  public List<Run> list(String sessionId) {
    return registry.withExisting(sessionId,
        state -> state.runs.values().stream().sorted(CREATION_ORDER).toList(), List::of);
  }

  @Override
  public List<Run> list(String sessionId, RunStatus status) {
    return registry.withExisting(sessionId,
        state -> state.runs.values().stream().filter(run -> run.status() == status).sorted(CREATION_ORDER).toList(),
        List::of);
  }

  @Override
  public Optional<Run> active(String sessionId) {
    return registry.withExisting(sessionId, state -> {
      Run active = null;
      for (Run run : state.runs.values()) {
        if (run.status().isActive()) {
          active = run;
        }
      }
      return Optional.ofNullable(active);
    }, Optional::empty);
  }
}
