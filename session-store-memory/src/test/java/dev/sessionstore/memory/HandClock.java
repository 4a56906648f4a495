package dev.sessionstore.memory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A store clock for tests that stands still at {@link #START} until moved. Thread-safe. */
public final class HandClock extends Clock {

  /** Where every hand clock starts. */
  public static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

  private final AtomicReference<Instant> now = new AtomicReference<>(START);

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  /** Moves the clock forward by {@code duration}. */
  public void advance(Duration duration) {
    now.updateAndGet(instant -> instant.plus(duration));
  }
}
