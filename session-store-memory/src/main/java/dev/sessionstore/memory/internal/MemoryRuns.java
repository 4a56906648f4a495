package dev.sessionstore.memory.internal;

import dev.sessionstore.ConflictException;
import dev.sessionstore.Run;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.Runs;
import dev.sessionstore.spi.Arguments;
import dev.sessionstore.spi.IdOrder;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The runs of an in-memory store, kept by their session in the order they were last saved, so that the active run is
 * the last running one even when the clock does not move between saves. Run ids are unique store-wide through the
 * registry's atomic claims.
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
    context.checkOpen();
    Arguments.requireNonNull("run", write);
    return registry.withCreatable(write.sessionId(), state -> {
      Instant now = context.now();
      Run run = merge(state, write, now);
      registry.runOwners.claim(run.id(), state.id);
      registry.ensureExists(state, now);
      store(state, run);
      return run;
    });
  }

  /**
   * The run {@code write} makes of the session's stored one, checked but not stored; the caller holds the lock and
   * claims the run id before {@link #store}.
   *
   * @throws ConflictException if the run id belongs to another session
   */
  Run merge(SessionState state, RunWrite write, Instant now) {
    registry.runOwners.requireAvailable(write.id(), state.id);
    return write.applyTo(state.runs.get(write.id()), now);
  }

  /** Stores a merged run whose id the session owns, as the session's most recently saved run. */
  void store(SessionState state, Run run) {
    state.runs.remove(run.id());
    state.runs.put(run.id(), run);
  }

  @Override
  public Optional<Run> find(String runId) {
    context.checkOpen();
    Arguments.requireKey("runId", runId);
    String owner = registry.runOwners.owner(runId);
    if (owner == null) {
      return Optional.empty();
    }
    return registry.withExisting(owner, state -> Optional.ofNullable(state.runs.get(runId)), Optional::empty);
  }

  @Override
  public List<Run> list(String sessionId) {
    context.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    return registry.withExisting(sessionId,
        state -> state.runs.values().stream().sorted(CREATION_ORDER).toList(), List::of);
  }

  @Override
  public List<Run> list(String sessionId, RunStatus status) {
    context.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requireNonNull("status", status);
    return registry.withExisting(sessionId,
        state -> state.runs.values().stream().filter(run -> run.status() == status).sorted(CREATION_ORDER).toList(),
        List::of);
  }

  @Override
  public Optional<Run> active(String sessionId) {
    context.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    return registry.withExisting(sessionId, state -> {
      Run active = null;
      for (Run run : state.runs.values()) {
        if (run.status() == RunStatus.RUNNING) {
          active = run;
        }
      }
      return Optional.ofNullable(active);
    }, Optional::empty);
  }
}
