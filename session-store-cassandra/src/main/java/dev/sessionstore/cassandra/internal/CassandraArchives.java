package dev.sessionstore.cassandra.internal;

import dev.sessionstore.Archives;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.ImportOutcome;
import dev.sessionstore.ModelCall;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.ToolCall;
import dev.sessionstore.cassandra.internal.Rows.Header;
import dev.sessionstore.spi.ToolCallTransitions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Export and import of whole sessions on Cassandra. A session is one partition, so an export is one consistent view
 * of it ({@link PartitionReader#consistent}: read again when a write landed meanwhile), after the due calls it holds
 * were expired by their compare-and-set, so that it shows them as every read does; an import is one conditional
 * batch creating the partition with everything in it ({@link StepWriter#importArchive}), so it is whole or absent.
 * What spans partitions is written first and idempotently: the listing index, the deadline hints of pending calls,
 * the name claim (a name another session holds makes the import a conflict, nothing written). Global checkpoints
 * are imported with a lightweight transaction ({@code IF NOT EXISTS}) and listed through their names' index
 * ({@link CassandraCheckpoints}).
 */
final class CassandraArchives implements Archives {

  private final Cql cql;
  private final PartitionReader reader;
  private final StepWriter writer;
  private final CassandraCheckpoints checkpoints;
  private final CassandraModelCallAudit modelCalls;

  CassandraArchives(Cql cql, PartitionReader reader, StepWriter writer, CassandraCheckpoints checkpoints,
      CassandraModelCallAudit modelCalls) {
    this.cql = cql;
    this.reader = reader;
    this.writer = writer;
    this.checkpoints = checkpoints;
    this.modelCalls = modelCalls;
  }

  @Override
  public Optional<SessionArchive> export(String sessionId) {
    Instant now = cql.settings.clock().instant();
    for (ToolCall call : Reads.run(() -> reader.toolCalls(sessionId, false))) {
      if (ToolCallTransitions.isDue(call, now)) {
        writer.expire(sessionId, call.id());
      }
    }
    return Optional.ofNullable(Reads.run(() -> reader.consistent(sessionId, header -> archive(sessionId, header,
        now))));
  }

  /** The session as {@code header} shows it, with everything it owns; null when it does not exist. */
  private SessionArchive archive(String sessionId, Header header, Instant now) {
    if (!header.exists()) {
      return null;
    }
    List<ToolCall> calls = new ArrayList<>();
    for (ToolCall call : reader.toolCalls(sessionId, false)) {
      calls.add(ToolCallTransitions.isDue(call, now) ? ToolCallTransitions.expired(call, now) : call);
    }
    List<ModelCall> audit = modelCalls.enabled() ? modelCalls.list(sessionId) : List.of();
    return new SessionArchive(header.session(), reader.eventsBetween(sessionId, header, 0, header.lastSeq()),
        reader.runs(sessionId).stream().map(PartitionReader.SavedRun::run).toList(), calls,
        reader.summaries(sessionId), reader.checkpoints(sessionId), audit, header.cutSeq());
  }

  @Override
  public ImportOutcome importSession(SessionArchive archive) {
    SessionArchive kept = modelCalls.enabled() ? archive : archive.withModelCalls(List.of());
    Instant now = cql.settings.clock().instant();
    return writer.importArchive(kept, header -> archive(archive.sessionId(), header, now));
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
