package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicBoolean;

/** A store whose second {@code close()} throws instead of doing nothing. */
class BrokenCloseTwiceThrowsTest extends BrokenStoreTest {

  BrokenCloseTwiceThrowsTest() {
    super(SessionStoreConformance.ClosedStore.class, "closingTwiceIsHarmless", "the second close()");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    AtomicBoolean closed = new AtomicBoolean();
    return ForwardingStore.of(correctStore(clock)).withClose(delegate -> {
      if (!closed.compareAndSet(false, true)) {
        throw new IllegalStateException("already closed");
      }
      delegate.close();
    });
  }
}
