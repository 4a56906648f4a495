package consumer;

import dev.sessionstore.SessionStore;
import dev.sessionstore.memory.InMemorySessionStore;
import org.junit.jupiter.api.Test;

/** session-store-memory as a user's project has it: the round trip on an in-memory store. */
class MemoryRoundTripTest {

  @Test
  void createAppendReadBack() {
    try (SessionStore store = InMemorySessionStore.builder().build()) {
      RoundTrip.check(store);
    }
  }
}
