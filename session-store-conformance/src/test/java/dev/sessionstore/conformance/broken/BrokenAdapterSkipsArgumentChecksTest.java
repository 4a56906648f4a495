package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.internal.MemoryStore;
import java.time.Clock;

/**
 * The bare in-memory adapter, built without the validating layer in front of it: it relies on arguments being
 * checked already, so a null session id is reported as a field it did not name.
 */
class BrokenAdapterSkipsArgumentChecksTest extends BrokenStoreTest {

  BrokenAdapterSkipsArgumentChecksTest() {
    super(SessionStoreConformance.ArgumentRules.class, "sessionArgumentsAreChecked",
        "sessions().mergeMetadata(sessionId, patch) with a null id");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return new MemoryStore(clock, true);
  }
}
