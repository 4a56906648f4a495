package dev.sessionstore.conformance.broken;

import dev.sessionstore.Capability;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.spi.ForwardingSessionStore;
import dev.sessionstore.spi.Interception;
import java.time.Clock;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * A store that leaves {@link Capability#SEARCH} out of what it declares but still answers {@code search()}, as a
 * decorator that withholds the capability and forgets to refuse the call does: a search of plaintext where the store
 * says it has none.
 */
class BrokenSearchAnswersWithoutTheCapabilityTest extends BrokenStoreTest {

  BrokenSearchAnswersWithoutTheCapabilityTest() {
    super(SessionStoreConformance.AbsentCapabilities.class, "withoutSearch", "search() on a store without SEARCH");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return new ForwardingSessionStore(correctStore(clock), Interception.none()) {
      @Override
      public Set<Capability> capabilities() {
        Set<Capability> declared = EnumSet.copyOf(super.capabilities());
        declared.remove(Capability.SEARCH);
        return Collections.unmodifiableSet(declared);
      }

      @Override
      public boolean supports(Capability capability) {
        return capability != Capability.SEARCH && super.supports(capability);
      }
    };
  }
}
