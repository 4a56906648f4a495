package dev.sessionstore.conformance.broken;

import dev.sessionstore.Flush;
import dev.sessionstore.FlushResult;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;

/** A store whose flush saves the session before the events, so a conflicting flush leaves the session written. */
class BrokenFlushWritesSessionFirstTest extends BrokenStoreTest {

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore real = InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
    return new ForwardingStore(real) {
      @Override
      public FlushResult flush(Flush flush) {
        delegate.sessions().save(flush.session());
        return delegate.flush(flush);
      }
    };
  }

  @Override
  protected Class<?> group() {
    return SessionStoreConformance.Flushes.class;
  }

  @Override
  protected String failingTest() {
    return "flushWithAStaleExpectedSeqStoresNothing";
  }

  @Override
  protected String failureMentions() {
    return "sessions, run and log after the failed flush";
  }
}
