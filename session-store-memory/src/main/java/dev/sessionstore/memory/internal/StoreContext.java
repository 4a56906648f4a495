package dev.sessionstore.memory.internal;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What the parts of one store share: its clock, and whether it was closed, which ends every blocked wait (the
 * validating layer in front of the store refuses every call after close, so nothing else asks).
 */
final class StoreContext {

  private final Clock clock;
  private final AtomicBoolean closed = new AtomicBoolean();

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

  /** The store clock's current instant. */
  Instant now() {
    return clock.instant();
  }
}
