package dev.sessionstore.cassandra.internal;

import dev.sessionstore.Run;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.Runs;
import dev.sessionstore.Step;
import dev.sessionstore.cassandra.internal.PartitionReader.SavedRun;
import dev.sessionstore.spi.IdOrder;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Runs on Cassandra: rows of their session's partition, upserted by steps ({@link StepWriter}); each row keeps the
 * head of the write that saved it last, so "saved last" is decided by the partition's own write order.
 */
final class CassandraRuns implements Runs {

  private static final Comparator<Run> CREATION_ORDER = Comparator.comparing(Run::createdAt)
      .thenComparing(Run::id, IdOrder.BY_CODE_POINT);

  private final PartitionReader reader;
  private final StepWriter writer;

  CassandraRuns(PartitionReader reader, StepWriter writer) {
    this.reader = reader;
    this.writer = writer;
  }

  @Override
  public Run save(RunWrite run) {
    return writer.commit(Step.builder(run.sessionId()).run(run).build(), false).run().orElseThrow();
  }

  @Override
  public Optional<Run> find(String sessionId, String runId) {
    return Reads.run(() -> reader.run(sessionId, runId, false));
  }

  @Override
  public List<Run> list(String sessionId) {
    return Reads.run(() -> reader.runs(sessionId)).stream().map(SavedRun::run).sorted(CREATION_ORDER).toList();
  }

  @Override
  public List<Run> list(String sessionId, RunStatus status) {
    return list(sessionId).stream().filter(run -> run.status() == status).toList();
  }

  @Override
  public Optional<Run> active(String sessionId) {
    return Reads.run(() -> reader.runs(sessionId)).stream()
        .filter(saved -> saved.run().status().isActive())
        .max(Comparator.comparing((SavedRun saved) -> saved.run().updatedAt())
            .thenComparingLong(SavedRun::savedOrder))
        .map(SavedRun::run);
  }
}
