package dev.sessionstore.cassandra.internal;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.spi.StoreEventHub;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tool-call deadlines held in the cluster and fired by whichever store instance sweeps first (guarantee 10 of
 * docs/guarantees.md), so that a deadline survives the process that set it.
 *
 * <p>A deadline's truth is its call's row in the session's partition; what a sweep needs to find it is a <b>hint</b>:
 * a row of {@code deadlines} in the partition of the hour it falls in (by the store clock), and that hour in
 * {@code deadline_hours}. A step that sets a deadline writes both (plain, idempotent writes) before its conditional
 * batch: a crash in between leaves a hint of a deadline that was never set, which a sweep finds not due and drops.
 * The hint row is written before its hour, so a sweep that sees the hour sees every hint written before it.
 *
 * <p>Every {@code sweepInterval} each instance reads the hours up to now, then each hour's hints due by now, and
 * expires each call through the call's own compare-and-set: an otherwise empty step on its session that looks at the
 * call ({@link StepWriter#write}), which expires it only if it is still pending with a deadline the store clock has
 * reached. Of several instances sweeping one hint, the first writes the expiry and the others find the call expired.
 * A hint is deleted once its call is expired, resolved or rescheduled; a past hour with no hints left is deleted
 * with the write timestamp of the moment before its hints were read, so that a hint written into it after that read
 * (whose hour row is written later still) keeps its hour.
 *
 * <p>Reads never wait for a sweep: every read expires a due call it meets (see {@link CassandraToolCalls}).
 */
final class DeadlineSweeper implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(DeadlineSweeper.class);
  private static final long MICROS_PER_HOUR = 3_600_000_000L;

  private final Cql cql;
  private final StepWriter writer;
  /** Where each call a sweep expired is reported. */
  private final StoreEventHub events;
  private final String ns;
  private final ScheduledExecutorService thread;

  DeadlineSweeper(Cql cql, StepWriter writer, StoreEventHub events) {
    this.cql = cql;
    this.writer = writer;
    this.events = events;
    this.ns = cql.settings.namespace();
    this.thread = Executors.newSingleThreadScheduledExecutor(task -> {
      Thread sweeper = new Thread(task, "session-store-cassandra-deadlines");
      sweeper.setDaemon(true);
      return sweeper;
    });
    long every = cql.settings.sweepInterval().toNanos();
    thread.scheduleWithFixedDelay(this::sweepLogged, every, every, TimeUnit.NANOSECONDS);
  }

  /** Writes the hints of {@code calls} (pending, with deadlines): each row, then its hour. */
  static void hint(Cql cql, String sessionId, List<ToolCall> calls) {
    String ns = cql.settings.namespace();
    for (ToolCall call : calls) {
      long due = Micros.of(call.deadline());
      long hour = Math.floorDiv(due, MICROS_PER_HOUR);
      cql.write(cql.addDeadline.bind(ns, hour, due, sessionId, call.id()));
      cql.write(cql.addDeadlineHour.bind(ns, hour));
    }
  }

  private void sweepLogged() {
    try {
      sweep();
    } catch (RuntimeException e) {
      LOG.debug("deadline sweep of namespace {} failed; the next one tries again", ns, e);
    }
  }

  /** Expires every call whose hint is due by the store clock; returns how many this sweep expired. */
  int sweep() {
    long now = Micros.of(cql.settings.clock().instant());
    List<Long> hours = new ArrayList<>();
    for (Row row : cql.read(cql.deadlineHours.bind(ns, Math.floorDiv(now, MICROS_PER_HOUR)))) {
      hours.add(row.getLong(0));
    }
    int expired = 0;
    for (long hour : hours) {
      long readAt = System.currentTimeMillis() * 1000 - 1;
      boolean kept = false;
      for (Row hint : cql.read(cql.dueDeadlines.bind(ns, hour, now))) {
        long due = hint.getLong(0);
        String sessionId = hint.getString(1);
        String callId = hint.getString(2);
        StepWriter.Expiry expiry = writer.expireDue(sessionId, callId);
        ToolCall call = expiry.call();
        if (call != null && call.status() == ToolCallStatus.PENDING && call.deadline() != null
            && Micros.of(call.deadline()) == due) {
          kept = true;
          continue;
        }
        if (expiry.expiredHere()) {
          expired++;
          events.deadlineFired();
        }
        cql.write(cql.removeDeadline.bind(ns, hour, due, sessionId, callId));
      }
      if (!kept && hour < Math.floorDiv(now, MICROS_PER_HOUR)) {
        cql.write(cql.removeDeadlineHour.bind(readAt, ns, hour));
      }
    }
    return expired;
  }

  /** Stops sweeping; a sweep under way finishes. */
  @Override
  public void close() {
    thread.shutdownNow();
  }
}
