package dev.sessionstore.conformance;

import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.SessionStore;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;
import java.time.Duration;

/** Certifies the in-memory adapter: the reference store every kit test must pass against. */
class InMemoryStoreConformanceTest extends SessionStoreConformance {

  @Override
  protected SessionStore newStore(Clock clock) {
    return InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
  }

  @Override
  protected SessionStore newRetainingStore(Clock clock, RetentionPolicy policy, Duration interval) {
    return InMemorySessionStore.builder().clock(clock).modelCallAudit(true).retention(policy, interval).build();
  }
}
