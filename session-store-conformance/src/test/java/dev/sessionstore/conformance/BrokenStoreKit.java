package dev.sessionstore.conformance;

import dev.sessionstore.SessionStore;
import java.time.Clock;
import java.util.function.Function;

/**
 * The kit bound to whatever store factory {@link KitRun} installs; launched programmatically, never by surefire
 * (its name does not match the test pattern).
 */
public class BrokenStoreKit extends SessionStoreConformance {

  static volatile Function<Clock, SessionStore> factory;

  @Override
  protected SessionStore newStore(Clock clock) {
    return factory.apply(clock);
  }
}
