package dev.sessionstore.conformance.broken;

import dev.sessionstore.Capability;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A store that declares cross-process wake-ups, shares its data with its peer, but whose waiting reads only re-read
 * every 5 seconds: as when appends send no notification other instances receive and the fallback poll does the work.
 * Every event arrives, seconds late.
 */
class BrokenWakeupOnlyByPollTest extends BrokenStoreTest {

  private static final long POLL_MILLIS = 5000;

  BrokenWakeupOnlyByPollTest() {
    super(SessionStoreConformance.SharedBackend.class, "wakesOnAnAppendThroughThePeer",
        "did not wake within 2000 ms of the append through the other instance");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return declaring(ForwardingStore.of(correctStore(clock)).withEvents(log -> new ForwardingEventLog(log) {
      @Override
      public EventPage await(String sessionId, EventQuery query, Duration timeout) {
        EventPage page = delegate.await(sessionId, query, Duration.ZERO);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (page.isEmpty() && System.nanoTime() < deadline) {
          long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
          try {
            Thread.sleep(Math.max(1, Math.min(POLL_MILLIS, left)));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return page;
          }
          page = delegate.read(sessionId, query);
        }
        return page;
      }
    }), Capability.CROSS_PROCESS_WAKEUP);
  }

  /** A second view of the same data, whose waiting reads poll alike. */
  @Override
  protected SessionStore brokenPeer(SessionStore first, Clock clock) {
    return declaring(first);
  }
}
