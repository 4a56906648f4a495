package dev.sessionstore.jdbc;

import dev.sessionstore.spi.RetryCause;
import dev.sessionstore.spi.SettledOutcome;
import dev.sessionstore.spi.StoreEvents;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** Records every event a store reports, for tests to assert on. Thread-safe. */
public final class StoreEventsRecorder implements StoreEvents {

  /** The retries, by cause, in the order reported. */
  public final List<RetryCause> retries = new CopyOnWriteArrayList<>();
  /** The settled outcomes, in the order reported. */
  public final List<SettledOutcome> settled = new CopyOnWriteArrayList<>();
  /** The wake latencies, in the order reported. */
  public final List<Duration> wakes = new CopyOnWriteArrayList<>();
  /** How many deadlines were reported fired. */
  public final AtomicInteger deadlines = new AtomicInteger();

  @Override
  public void retried(RetryCause cause) {
    retries.add(cause);
  }

  @Override
  public void outcomeSettled(SettledOutcome outcome) {
    settled.add(outcome);
  }

  @Override
  public void deadlineFired() {
    deadlines.incrementAndGet();
  }

  @Override
  public void readWoken(Duration sinceCommit) {
    wakes.add(sinceCommit);
  }
}
