package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.InMemorySessionStore;
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

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore real = InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
    EventLog broken = new ForwardingEventLog(real.events()) {
      @Override
      public List<Event> appendAll(String sessionId, List<NewEvent> events) {
        Map<String, NewEvent> firstById = new LinkedHashMap<>();
        events.forEach(event -> firstById.putIfAbsent(event.id(), event));
        List<Event> stored = delegate.appendAll(sessionId, List.copyOf(firstById.values()));
        Map<String, Event> byId = stored.stream().collect(Collectors.toMap(Event::id, event -> event));
        return events.stream().map(event -> byId.get(event.id())).collect(Collectors.toList());
      }
    };
    return new ForwardingStore(real) {
      @Override
      public EventLog events() {
        return broken;
      }
    };
  }

  @Override
  protected Class<?> group() {
    return SessionStoreConformance.EventAppends.class;
  }

  @Override
  protected String failingTest() {
    return "twoDifferentEventsWithOneIdInABatchStoreNothing";
  }

  @Override
  protected String failureMentions() {
    return "error for the batch";
  }
}
