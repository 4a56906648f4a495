package dev.sessionstore.conformance.broken;

import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/** A store that treats {@code after} as inclusive ({@code seq >= after}). */
class BrokenInclusiveAfterTest extends BrokenStoreTest {

  BrokenInclusiveAfterTest() {
    super(SessionStoreConformance.EventReads.class, "afterIsExclusive", "seqs read by EventQuery[after=3");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withEvents(log -> new ForwardingEventLog(log) {
      @Override
      public EventPage read(String sessionId, EventQuery query) {
        return delegate.read(sessionId, query.after() > 0 ? query.after(query.after() - 1) : query);
      }
    });
  }
}
