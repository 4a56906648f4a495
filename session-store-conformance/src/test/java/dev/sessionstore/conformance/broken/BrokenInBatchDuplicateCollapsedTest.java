package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A store that collapses in-batch duplicates by id alone, so two different events under one id silently store the
 * first instead of failing.
 */
class BrokenInBatchDuplicateCollapsedTest extends BrokenStoreTest {

  BrokenInBatchDuplicateCollapsedTest() {
    super(SessionStoreConformance.EventAppends.class, "twoDifferentEventsWithOneIdInABatchStoreNothing",
        "error for the batch");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withEvents(log -> new ForwardingEventLog(log) {
      @Override
      public List<Event> appendAll(String sessionId, List<NewEvent> events) {
        Map<String, NewEvent> firstById = new LinkedHashMap<>();
        events.forEach(event -> firstById.putIfAbsent(event.id(), event));
        List<Event> stored = delegate.appendAll(sessionId, List.copyOf(firstById.values()));
        Map<String, Event> byId = stored.stream().collect(Collectors.toMap(Event::id, event -> event));
        return events.stream().map(event -> byId.get(event.id())).collect(Collectors.toList());
      }
    });
  }
}
