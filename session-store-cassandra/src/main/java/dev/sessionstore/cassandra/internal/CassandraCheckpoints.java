package dev.sessionstore.cassandra.internal;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Checkpoints;
import dev.sessionstore.ImportOutcome;
import dev.sessionstore.OutcomeUnknownException;
import dev.sessionstore.Step;
import dev.sessionstore.StoreFailureException;
import dev.sessionstore.spi.IdOrder;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Checkpoints on Cassandra. A session's checkpoints are rows of its partition, put and deleted by steps
 * ({@link StepWriter}), so they go with the session. A global checkpoint is a partition of its own in
 * {@code global_checkpoints}, written with lightweight transactions only (update if it exists, else insert if it does
 * not), so a put and a delete racing on one name are ordered by Paxos, and a delete says truly whether it removed one.
 * A write whose outcome is unknown runs again until it completes (a put writes the same value and time again); a
 * deletion in doubt that then finds the checkpoint gone cannot tell whose deletion that was, and says so.
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
    settled("putting global checkpoint " + key.name(), inDoubt -> {
      cql.write(cql.addGlobalName.bind(ns, key.name()));
      while (!cql.write(cql.updateGlobalCheckpoint.bind(bytes, Micros.of(now), ns, key.name())).wasApplied()
          && !cql.write(cql.insertGlobalCheckpoint.bind(ns, key.name(), bytes, Micros.of(now))).wasApplied()) {
        Thread.onSpinWait();
      }
      return null;
    });
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
    String name = key.name();
    return settled("deleting global checkpoint " + name, inDoubt -> {
      if (inDoubt && cql.readSerial(cql.globalCheckpoint.bind(ns, name)).one() == null) {
        throw new OutcomeUnknownException("global checkpoint " + name + " is deleted, but whether by this call or by "
            + "another is unknown (a deletion whose outcome was unknown)", null);
      }
      return cql.write(cql.deleteGlobalCheckpoint.bind(ns, name)).wasApplied();
    });
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
    boolean inserted = settled("importing global checkpoint " + name, inDoubt -> {
      cql.write(cql.addGlobalName.bind(ns, name));
      return cql.write(cql.insertGlobalCheckpoint.bind(ns, name, ByteBuffer.wrap(checkpoint.data()),
          Micros.of(checkpoint.updatedAt()))).wasApplied();
    });
    if (inserted) {
      return ImportOutcome.IMPORTED;
    }
    return get(checkpoint.key()).filter(checkpoint::equals).isPresent() ? ImportOutcome.UNCHANGED
        : ImportOutcome.CONFLICT;
  }

  /**
   * Runs {@code write}, a global checkpoint's write whose attempts may run again (the same row written to the same
   * value, or a deletion), to an honest outcome (guarantee 17 of docs/guarantees.md): a failure that certainly wrote
   * nothing ends it as {@link StoreFailureException}; after a failure whose outcome is unknown, it runs again, told
   * that an earlier attempt may have applied, with the writer's growing pauses, until it completes or the store's
   * retry timeout passes ({@link OutcomeUnknownException}: running the call again is safe).
   */
  private <T> T settled(String action, GlobalWrite<T> write) {
    long deadline = System.nanoTime() + cql.settings.retryTimeout().toNanos();
    RuntimeException unknown = null;
    for (int round = 0; ; round++) {
      try {
        return write.run(unknown != null);
      } catch (RuntimeException e) {
        if (!DriverFailures.isDriverFailure(e)) {
          throw e;
        }
        if (unknown == null && !DriverFailures.outcomeUnknown(e)) {
          throw DriverFailures.failed(action, e);
        }
        if (unknown == null) {
          unknown = e;
        }
        if (System.nanoTime() - deadline > 0) {
          throw new OutcomeUnknownException("the outcome of " + action + " is unknown and could not be settled in "
              + "time; running it again is safe", unknown);
        }
        StepWriter.pause(round);
      }
    }
  }

  /** One attempt of a global checkpoint's write; {@code inDoubt} when an earlier attempt may have applied. */
  @FunctionalInterface
  private interface GlobalWrite<T> {
    T run(boolean inDoubt);
  }
}
