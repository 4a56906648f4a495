package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * A store that stamps events with its clock rounded to the nearest microsecond, as a JDBC driver rounds the
 * nanoseconds of an instant it binds, instead of truncated like every instant the API reports.
 */
class BrokenClockRoundedToTheMicrosecondTest extends BrokenStoreTest {

  BrokenClockRoundedToTheMicrosecondTest() {
    super(SessionStoreConformance.EventAppends.class, "clockBetweenMicrosecondsIsTruncated",
        "the stamped timestamp, truncated to the microsecond");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withEvents(log -> new ForwardingEventLog(log) {
      @Override
      public Event append(String sessionId, NewEvent event) {
        return delegate.append(sessionId, stamped(event, clock));
      }

      @Override
      public List<Event> appendAll(String sessionId, List<NewEvent> events) {
        return delegate.appendAll(sessionId, events.stream().map(event -> stamped(event, clock)).toList());
      }
    });
  }

  private static NewEvent stamped(NewEvent event, Clock clock) {
    if (event.timestamp() != null) {
      return event;
    }
    Instant now = clock.instant();
    Instant rounded = now.plusNanos(500).truncatedTo(ChronoUnit.MICROS);
    return event.withTimestamp(rounded);
  }
}
