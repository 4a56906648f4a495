package dev.sessionstore.memory.internal;

import dev.sessionstore.Archives;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.ConflictException;
import dev.sessionstore.EventQuery;
import dev.sessionstore.ImportOutcome;
import dev.sessionstore.ModelCall;
import dev.sessionstore.Run;
import dev.sessionstore.Session;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.Summary;
import dev.sessionstore.ToolCall;
import dev.sessionstore.spi.ArchiveRules;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Export and import of whole sessions in an in-memory store. Both run under the session's lock, which every write to
 * the session takes, so an export is one consistent view and an import stores the whole archive before any reader
 * or writer of the session sees any of it. An import checks what can collide (the session id, its name) before it
 * stores anything, then stores in a part that cannot fail; the archive was checked by the validating layer.
 */
final class MemoryArchives implements Archives {

  /** The order runs are stored in, least recently updated first, as saves leave them. */
  private static final Comparator<Run> UPDATE_ORDER = Comparator.comparing(Run::updatedAt);

  private final StoreContext context;
  private final SessionRegistry registry;
  private final MemorySessions sessions;
  private final MemoryRuns runs;
  private final MemoryToolCalls toolCalls;
  private final MemoryCheckpoints checkpoints;
  private final MemoryModelCallAudit modelCalls;

  MemoryArchives(StoreContext context, SessionRegistry registry, MemorySessions sessions, MemoryRuns runs,
      MemoryToolCalls toolCalls, MemoryCheckpoints checkpoints, MemoryModelCallAudit modelCalls) {
    this.context = context;
    this.registry = registry;
    this.sessions = sessions;
    this.runs = runs;
    this.toolCalls = toolCalls;
    this.checkpoints = checkpoints;
    this.modelCalls = modelCalls;
  }

  @Override
  public Optional<SessionArchive> export(String sessionId) {
    return registry.withExisting(sessionId, state -> Optional.of(archive(state, context.now())), Optional::empty);
  }

  /** The session of {@code state} whole, tool calls as they stand at {@code now}; the caller holds the lock. */
  private SessionArchive archive(SessionState state, Instant now) {
    List<ToolCall> calls = new ArrayList<>();
    for (String toolCallId : List.copyOf(state.toolCalls.keySet())) {
      calls.add(toolCalls.current(state, toolCallId, now));
    }
    return new SessionArchive(state.session(), state.log.read(EventQuery.all()).items(),
        List.copyOf(state.runs.values()), calls, List.copyOf(state.summaries.values()),
        List.copyOf(state.checkpoints.values()),
        modelCalls.enabled() ? List.copyOf(state.modelCalls.values()) : List.of(), state.log.firstSeq() - 1);
  }

  @Override
  public ImportOutcome importSession(SessionArchive archive) {
    SessionArchive kept = modelCalls.enabled() ? archive : archive.withModelCalls(List.of());
    return registry.withCreatable(archive.sessionId(), state -> {
      if (state.exists()) {
        return ArchiveRules.outcomeOver(archive(state, context.now()), kept);
      }
      Session session = kept.session();
      try {
        sessions.claimName(session);
      } catch (ConflictException nameTaken) {
        return ImportOutcome.CONFLICT;
      }
      store(state, kept);
      return ImportOutcome.IMPORTED;
    });
  }

  /** Stores a checked archive as the session of {@code state}, which does not exist yet; cannot fail. */
  private void store(SessionState state, SessionArchive archive) {
    registry.store(state, archive.session());
    state.log.addAll(archive.cutSeq(), archive.events());
    archive.runs().stream().sorted(UPDATE_ORDER).forEach(run -> runs.store(state, run));
    archive.toolCalls().forEach(call -> toolCalls.store(state, call));
    for (Summary summary : archive.summaries()) {
      state.summaries.put(summary.toSeq(), summary);
    }
    for (Checkpoint checkpoint : archive.checkpoints()) {
      state.checkpoints.put(checkpoint.key().name(), checkpoint);
    }
    for (ModelCall row : archive.modelCalls()) {
      state.modelCalls.put(row.turn(), row);
    }
    state.signalAppended();
  }

  @Override
  public List<Checkpoint> globalCheckpoints() {
    return checkpoints.globals();
  }

  @Override
  public ImportOutcome importGlobalCheckpoint(Checkpoint checkpoint) {
    return checkpoints.importGlobal(checkpoint);
  }
}
