package dev.sessionstore.memory.internal;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;

/** What every operation of one store consults first: whether the store is still open, and its clock. */
final class StoreContext {

  private final Clock clock;
  private final AtomicBoolean closed = new AtomicBoolean();

  StoreContext(Clock clock) {
    this.clock = clock;
  }

  /** @throws IllegalStateException once the store is closed */
  void checkOpen() {
    if (closed.get()) {
      throw new IllegalStateException("the session store is closed");
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
