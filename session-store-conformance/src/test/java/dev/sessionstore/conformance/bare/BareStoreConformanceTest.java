package dev.sessionstore.conformance.bare;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * Certifies {@link BareStore}, which declares no optional capability: every required group must pass, the absent
 * capabilities group checks that each optional one is refused with nothing stored, and the other optional groups
 * are skipped, naming what they need. This is all an adapter author writes to run the kit.
 */
class BareStoreConformanceTest extends SessionStoreConformance {

  @Override
  protected SessionStore newStore(Clock clock) {
    return BareStore.create(clock);
  }
}
