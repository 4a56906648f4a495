package dev.sessionstore.cassandra.internal;

import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.sessionstore.ModelCall;
import dev.sessionstore.ModelCallAudit;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.Step;
import dev.sessionstore.spi.Timeouts;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The model-call audit on Cassandra: rows of the session's partition (kind {@code m}, keyed by the zero-padded turn),
 * recorded by steps ({@link StepWriter}) with the turn they audit, and deleted with the session. Removing a session's
 * old rows is one conditional batch on its head ({@link StepWriter#change}) deleting the rows it read recorded
 * before the cutoff, so a row recording the same turn again in between makes it read again, and of two removals
 * racing, only the one whose batch applied counts the rows. Removing the rows of every session reads the namespace's
 * listing index and does each session in turn; a crash midway leaves old rows of some sessions, and repeating the
 * call finishes.
 */
final class CassandraModelCallAudit implements ModelCallAudit {

  private final Cql cql;
  private final StepWriter writer;
  private final SessionIndex index;
  private final String ns;

  CassandraModelCallAudit(Cql cql, StepWriter writer, SessionIndex index) {
    this.cql = cql;
    this.writer = writer;
    this.index = index;
    this.ns = cql.settings.namespace();
  }

  @Override
  public boolean enabled() {
    return cql.settings.modelCallAudit();
  }

  @Override
  public boolean record(String sessionId, NewModelCall call) {
    if (!enabled()) {
      return false;
    }
    return writer.commit(Step.builder(sessionId).modelCall(call).build(), false).modelCall().isPresent();
  }

  @Override
  public List<ModelCall> list(String sessionId) {
    if (!enabled()) {
      return List.of();
    }
    List<ModelCall> rows = new ArrayList<>();
    Reads.run(() -> cql.read(cql.modelCalls.bind(ns, sessionId))).forEach(row -> rows.add(Rows.modelCall(sessionId,
        row)));
    return List.copyOf(rows);
  }

  @Override
  public int deleteOlderThan(String sessionId, Duration age) {
    return deleteBefore(sessionId, Timeouts.cutoff(cql.settings.clock().instant(), age));
  }

  @Override
  public int deleteOlderThan(Duration age) {
    Instant cutoff = Timeouts.cutoff(cql.settings.clock().instant(), age);
    int deleted = 0;
    for (String sessionId : run(index::ids)) {
      deleted += deleteBefore(sessionId, cutoff);
    }
    return deleted;
  }

  /** Removes the session's rows recorded before {@code cutoff}; returns how many this call removed. */
  int deleteBefore(String sessionId, Instant cutoff) {
    return run(() -> (int) writer.change(sessionId, (header, serial) -> {
      List<BatchableStatement<?>> deletes = new ArrayList<>();
      for (long turn : turnsBefore(sessionId, cutoff, serial)) {
        deletes.add(cql.deleteModelCall.bind(ns, sessionId, Rows.eventKey(turn)));
      }
      return deletes.isEmpty() ? null : new StepWriter.PartitionChange(deletes, header.cutSeq(), deletes.size());
    }));
  }

  /** How many of the session's rows were recorded before {@code cutoff} (what {@link #deleteBefore} removes now). */
  int countBefore(String sessionId, Instant cutoff) {
    return run(() -> turnsBefore(sessionId, cutoff, false).size());
  }

  private List<Long> turnsBefore(String sessionId, Instant cutoff, boolean serial) {
    List<Long> turns = new ArrayList<>();
    for (Row row : cql.read(cql.modelCalls.bind(ns, sessionId), serial)) {
      ModelCall call = Rows.modelCall(sessionId, row);
      if (call.recordedAt().isBefore(cutoff)) {
        turns.add(call.turn());
      }
    }
    return turns;
  }

  private static <T> T run(Supplier<T> work) {
    try {
      return work.get();
    } catch (RuntimeException e) {
      throw DriverFailures.isDriverFailure(e) ? DriverFailures.failed("removing old audit rows", e) : e;
    }
  }
}
