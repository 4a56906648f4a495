package dev.sessionstore.memory.internal;

import dev.sessionstore.spi.StoreEventHub;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the parts of one store share: its clock, whether it was closed, which ends every blocked wait (the
 * validating layer in front of the store refuses every call after close, so nothing else asks), and the hub its
 * events are reported to.
 */
final class StoreContext {

  private static final Logger LOG = LoggerFactory.getLogger(StoreContext.class);

  private final Clock clock;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final StoreEventHub events = new StoreEventHub(failure -> LOG.warn(
      "session-store: a store event listener failed; its later failures are not logged", failure));

  StoreContext(Clock clock) {
    this.clock = clock;
  }

  /** Whether the store was closed: a blocked wait then returns what it has. */
  boolean isClosed() {
    return closed.get();
  }

  /**
   * Fails when the store was closed: for what is reached past the validating layer ({@link MemoryStoredValues}).
   * @throws dev.sessionstore.StoreClosedException if it was
   */
  void checkOpen() {
    if (closed.get()) {
      throw new dev.sessionstore.StoreClosedException();
    }
  }

  /** Marks the store closed; returns whether this call closed it. */
  boolean close() {
    return closed.compareAndSet(false, true);
  }

  /** Where the store reports its internal events (deadlines fired, waiting reads parked and woken). */
  StoreEventHub events() {
    return events;
  }

  /**
   * Reports the wake latency of a waiting read returning now, woken by the signal given at {@code signalledAtNanos}
   * ({@link System#nanoTime()}). Called after the read let go of its session's lock.
   */
  void readWokenSince(long signalledAtNanos) {
    events.readWoken(Duration.ofNanos(System.nanoTime() - signalledAtNanos));
  }

  /** The store clock's current instant. */
  Instant now() {
    return clock.instant();
  }
}
