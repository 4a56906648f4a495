package dev.sessionstore.conformance;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock the kit moves by hand, so that time-dependent guarantees (deadlines, audit age, {@code since} filters) are
 * tested without sleeping. Thread-safe. It starts at {@link #START} and only moves when told to.
 */
public final class TestClock extends Clock {

  /** Where every kit clock starts. */
  public static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

  private final AtomicReference<Instant> now = new AtomicReference<>(START);

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("the kit clock is UTC only");
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  /** Moves the clock forward by {@code duration}. */
  public void advance(Duration duration) {
    now.updateAndGet(current -> current.plus(duration));
  }

  /** Sets the clock to {@code instant}. */
  public void set(Instant instant) {
    now.set(instant);
  }
}
