package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.internal.MemoryStore;
import java.time.Clock;

/**
 * The bare in-memory adapter, built without the validating layer in front of it: it has no closed check, so its
 * aggregates keep serving after close.
 */
class BrokenAdapterWithoutValidatingLayerTest extends BrokenStoreTest {

  BrokenAdapterWithoutValidatingLayerTest() {
    super(SessionStoreConformance.ClosedStore.class, "everyOperationFailsAfterClose", "sessions() after close");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return new MemoryStore(clock, true);
  }
}
