package dev.sessionstore.cassandra.internal;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Checkpoints;
import dev.sessionstore.Step;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import dev.sessionstore.ImportOutcome;
import dev.sessionstore.spi.IdOrder;

/**
 * Checkpoints on Cassandra. A session's checkpoints are rows of its partition, put and deleted by steps
 * ({@link StepWriter}), so they go with the session. A global checkpoint is a partition of its own in
 * {@code global_checkpoints}, written with lightweight transactions only (update if it exists, else insert if it does
 * not), so a put and a delete racing on one name are ordered by Paxos, and a delete says truly whether it removed one.
 * Their names are listed in {@code global_checkpoint_names}, written (idempotently) before the checkpoint and never
 * removed: listing reads the names, then the checkpoints, and skips a name whose checkpoint is gone (deleted, or a
 * crash between the two writes).
 */
final class CassandraCheckpoints implements Checkpoints {

  private final Cql cql;
  private final PartitionReader reader;
  private final StepWriter writer;
  private final String ns;

  CassandraCheckpoints(Cql cql, PartitionReader reader, StepWriter writer) {
    this.cql = cql;
    this.reader = reader;
    this.writer = writer;
    this.ns = cql.settings.namespace();
  }

  @Override
  public Checkpoint put(CheckpointKey key, byte[] data) {
    if (key.isSessionScoped()) {
      return writer.commit(Step.builder(key.sessionId()).putCheckpoint(key.name(), data).build(), false)
          .checkpoints().get(0);
    }
    Instant now = cql.settings.clock().instant().truncatedTo(ChronoUnit.MICROS);
    ByteBuffer bytes = ByteBuffer.wrap(data);
    try {
      cql.write(cql.addGlobalName.bind(ns, key.name()));
      while (!cql.write(cql.updateGlobalCheckpoint.bind(bytes, Micros.of(now), ns, key.name())).wasApplied()
          && !cql.write(cql.insertGlobalCheckpoint.bind(ns, key.name(), bytes, Micros.of(now))).wasApplied()) {
        Thread.onSpinWait();
      }
    } catch (RuntimeException e) {
      throw DriverFailures.isDriverFailure(e) ? DriverFailures.failed("putting global checkpoint " + key.name(), e) : e;
    }
    return new Checkpoint(key, data, now);
  }

  @Override
  public Optional<Checkpoint> get(CheckpointKey key) {
    if (key.isSessionScoped()) {
      return Reads.run(() -> reader.checkpoint(key.sessionId(), key.name()));
    }
    Row row = Reads.run(() -> cql.read(cql.globalCheckpoint.bind(ns, key.name())).one());
    return row == null ? Optional.empty() : Optional.of(Rows.checkpoint(key, row));
  }

  @Override
  public boolean delete(CheckpointKey key) {
    if (key.isSessionScoped()) {
      return writer.deleteCheckpoint(key.sessionId(), key.name());
    }
    try {
      return cql.write(cql.deleteGlobalCheckpoint.bind(ns, key.name())).wasApplied();
    } catch (RuntimeException e) {
      throw DriverFailures.isDriverFailure(e) ? DriverFailures.failed("deleting global checkpoint " + key.name(), e)
          : e;
    }
  }

  /** Every global checkpoint, by name in code point order. */
  List<Checkpoint> globals() {
    return Reads.run(() -> {
      List<Checkpoint> found = new ArrayList<>();
      for (Row name : cql.read(cql.globalNames.bind(ns))) {
        get(CheckpointKey.global(name.getString(0))).ifPresent(found::add);
      }
      found.sort(Comparator.comparing(checkpoint -> checkpoint.key().name(), IdOrder.BY_CODE_POINT));
      return List.copyOf(found);
    });
  }

  /** Stores an exported global checkpoint as it is, time included, unless its name holds one already. */
  ImportOutcome importGlobal(Checkpoint checkpoint) {
    String name = checkpoint.key().name();
    try {
      cql.write(cql.addGlobalName.bind(ns, name));
      if (cql.write(cql.insertGlobalCheckpoint.bind(ns, name, ByteBuffer.wrap(checkpoint.data()),
          Micros.of(checkpoint.updatedAt()))).wasApplied()) {
        return ImportOutcome.IMPORTED;
      }
    } catch (RuntimeException e) {
      throw DriverFailures.isDriverFailure(e) ? DriverFailures.failed("importing global checkpoint " + name, e) : e;
    }
    return get(checkpoint.key()).filter(checkpoint::equals).isPresent() ? ImportOutcome.UNCHANGED
        : ImportOutcome.CONFLICT;
  }
}
