package dev.sessionstore.conformance.broken;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sessionstore.Event;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * A store that recognizes a replay by a shallow look at the payload: the same keys for objects, the same length for
 * arrays. An event id reused with other values in those places is taken for a replay instead of a duplicate.
 */
class BrokenShallowPayloadComparisonTest extends BrokenStoreTest {

  BrokenShallowPayloadComparisonTest() {
    super(SessionStoreConformance.Payloads.class, "aPayloadDifferingInOneValueIsADuplicate",
        "append of e-1 again with a payload differing in one array element");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withEvents(log -> new ForwardingEventLog(log) {
      @Override
      public Event append(String sessionId, NewEvent event) {
        Optional<Event> stored = delegate.find(sessionId, event.id());
        if (stored.isPresent() && stored.get().type().equals(event.type())
            && shallowlyEqual(stored.get().payload().tree(), event.payload().tree())) {
          return stored.get();
        }
        return delegate.append(sessionId, event);
      }
    });
  }

  private static boolean shallowlyEqual(JsonNode stored, JsonNode other) {
    if (stored.isObject() && other.isObject()) {
      return keys(stored).equals(keys(other));
    }
    if (stored.isArray() && other.isArray()) {
      return stored.size() == other.size();
    }
    return stored.equals(other);
  }

  private static Set<String> keys(JsonNode object) {
    Set<String> keys = new HashSet<>();
    object.fieldNames().forEachRemaining(keys::add);
    return keys;
  }
}
