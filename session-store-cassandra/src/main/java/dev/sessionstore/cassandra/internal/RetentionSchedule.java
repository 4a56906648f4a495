package dev.sessionstore.cassandra.internal;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.sessionstore.spi.RetentionRules;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A namespace's retention schedule, held by the cluster: {@code retention_sweeps} records when the namespace was last
 * swept (by the store clock), and a sweep runs only in the instance that claims the next one, with a lightweight
 * transaction moving that record from the time it read ({@code IF swept = <read>}) once an interval has passed since.
 * So however many instances are built with a schedule, the namespace is swept once per interval between them, by
 * whichever comes first; and because the record outlives processes, an instance built after a restart sweeps as soon
 * as the last sweep (by any instance) is an interval old, not one interval after its own build: instances redeployed
 * more often than the interval still sweep.
 *
 * <p>Each instance looks every quarter interval (at least {@link RetentionRules#MIN_INTERVAL}): one single-row read,
 * and the claim only when one is due. An instance that claims a sweep and then fails in it leaves the rest to the
 * next sweep (the sessions it did are done: each is its own conditional batch). Clocks of instances that disagree
 * shift when sweeps run, never how many run at once: a claim needs the record as read.
 */
final class RetentionSchedule implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RetentionSchedule.class);

  private final Cql cql;
  private final String ns;
  private final long intervalMicros;
  private final Runnable sweep;
  private final ScheduledExecutorService thread;

  /** Starts looking for due sweeps of the namespace every quarter {@code interval}; runs {@code sweep} when claimed. */
  RetentionSchedule(Cql cql, Duration interval, Runnable sweep) {
    this.cql = cql;
    this.ns = cql.settings.namespace();
    this.intervalMicros = interval.toNanos() / 1_000;
    this.sweep = sweep;
    this.thread = Executors.newSingleThreadScheduledExecutor(task -> {
      Thread sweeper = new Thread(task, "session-store-cassandra-retention");
      sweeper.setDaemon(true);
      return sweeper;
    });
    long look = Math.max(interval.toNanos() / 4, RetentionRules.MIN_INTERVAL.toNanos());
    thread.scheduleWithFixedDelay(this::lookLogged, look, look, TimeUnit.NANOSECONDS);
  }

  private void lookLogged() {
    try {
      if (claim()) {
        sweep.run();
      }
    } catch (RuntimeException e) {
      LOG.warn("scheduled retention of namespace {} failed; the next one runs when due", ns, e);
    }
  }

  /** Whether this instance claimed the sweep due now (none is due before an interval passed since the last). */
  boolean claim() {
    long now = Micros.of(cql.settings.clock().instant());
    Row row = cql.readSerial(cql.lastSweep.bind(ns)).one();
    if (row == null) {
      return cql.write(cql.claimFirstSweep.bind(ns, now)).wasApplied();
    }
    long last = row.getLong(0);
    return now - last >= intervalMicros && cql.write(cql.claimSweep.bind(now, ns, last)).wasApplied();
  }

  /** Stops looking; a sweep under way stops at its next request. */
  @Override
  public void close() {
    thread.shutdownNow();
  }
}
