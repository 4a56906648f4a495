package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/** A store that appends a batch member by member, so a late bad member leaves the earlier ones stored. */
class BrokenNonAtomicBatchTest extends BrokenStoreTest {

  BrokenNonAtomicBatchTest() {
    super(SessionStoreConformance.EventAppends.class, "batchWithABadLastMemberIsAllOrNothing",
        "lastSeq after the failed batch");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withEvents(log -> new ForwardingEventLog(log) {
      @Override
      public List<Event> appendAll(String sessionId, List<NewEvent> events) {
        List<Event> stored = new ArrayList<>();
        for (NewEvent event : events) {
          stored.add(delegate.append(sessionId, event));
        }
        return stored;
      }
    });
  }
}
