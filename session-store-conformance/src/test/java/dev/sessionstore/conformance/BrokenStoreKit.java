package dev.sessionstore.conformance;

import dev.sessionstore.SessionStore;
import java.time.Clock;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The kit bound to whatever store and peer factories {@link KitRun} installs; launched programmatically, never by
 * surefire (its name does not match the test pattern).
 */
public class BrokenStoreKit extends SessionStoreConformance {

  static volatile Function<Clock, SessionStore> factory;
  /** Builds the peer of a store from {@link #factory}; returns null for a store without one. */
  static volatile BiFunction<SessionStore, Clock, SessionStore> peerFactory;

  @Override
  protected SessionStore newStore(Clock clock) {
    return factory.apply(clock);
  }

  @Override
  protected SessionStore newPeerStore(SessionStore first, Clock clock) {
    return peerFactory.apply(first, clock);
  }
}
