package dev.sessionstore.cassandra.internal;

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
 * recorded by steps ({@link StepWriter}) with the turn they audit, and deleted with the session. Removing old rows is
 * not a conditional write: each row recorded before the cutoff is deleted by key at the latest write timestamp of its
 * cells as read (its recording, or a later rewrite of a value), so a row recording the same turn again after that read
 * (a later timestamp) is not deleted. Removing the rows of every session reads the namespace's listing index and does
 * each session in turn; a crash midway leaves old rows of some sessions, and repeating the call finishes.
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

  private int deleteBefore(String sessionId, Instant cutoff) {
    return run(() -> {
      int deleted = 0;
      for (Row row : cql.read(cql.modelCalls.bind(ns, sessionId))) {
        if (Rows.modelCall(sessionId, row).recordedAt().isBefore(cutoff)) {
          cql.write(cql.deleteModelCall.bind(writtenAt(row), ns, sessionId, Rows.eventKey(row.getLong(0))));
          deleted++;
        }
      }
      return deleted;
    });
  }

  /**
   * The latest write timestamp of a row of {@link Cql#modelCalls}: its recording, or a later rewrite of its context
   * or usage ({@link CassandraStoredValues}), which a deletion at the recording's timestamp would leave behind.
   */
  private static long writtenAt(Row row) {
    long latest = row.getLong(5);
    for (int column = 6; column <= 7; column++) {
      if (!row.isNull(column)) {
        latest = Math.max(latest, row.getLong(column));
      }
    }
    return latest;
  }

  private static <T> T run(Supplier<T> work) {
    try {
      return work.get();
    } catch (RuntimeException e) {
      throw DriverFailures.isDriverFailure(e) ? DriverFailures.failed("removing old audit rows", e) : e;
    }
  }
}
