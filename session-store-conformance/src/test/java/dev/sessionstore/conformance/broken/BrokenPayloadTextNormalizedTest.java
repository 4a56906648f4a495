package dev.sessionstore.conformance.broken;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.sessionstore.Event;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.Map;
import java.util.TreeMap;

/**
 * A store that keeps event payloads as PostgreSQL {@code jsonb} does: equal as JSON, but printed anew, compact and
 * with the top-level keys sorted, so its output differs from what was written.
 */
class BrokenPayloadTextNormalizedTest extends BrokenStoreTest {

  BrokenPayloadTextNormalizedTest() {
    super(SessionStoreConformance.Payloads.class, "eventPayloadsKeepTheirText", "the text written, byte for byte");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withEvents(log -> new ForwardingEventLog(log) {
      @Override
      public Event append(String sessionId, NewEvent event) {
        return delegate.append(sessionId, event.withPayload(normalized(event.payload())));
      }
    });
  }

  private static Json normalized(Json payload) {
    if (!payload.isObject()) {
      return Json.from(payload.tree());
    }
    return Json.from(new TreeMap<>(payload.as(new TypeReference<Map<String, Object>>() { })));
  }
}
