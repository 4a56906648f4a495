package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/** A store whose flush saves the session before the events, so a conflicting flush leaves the session written. */
class BrokenFlushWritesSessionFirstTest extends BrokenStoreTest {

  BrokenFlushWritesSessionFirstTest() {
    super(SessionStoreConformance.Flushes.class, "flushWithAStaleExpectedSeqStoresNothing",
        "sessions, run and log after the failed flush");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withFlush(flush -> {
      correct.sessions().save(flush.session());
      return correct.flush(flush);
    });
  }
}
