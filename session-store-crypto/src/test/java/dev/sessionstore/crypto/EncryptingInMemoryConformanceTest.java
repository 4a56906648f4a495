package dev.sessionstore.crypto;

import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;
import java.time.Duration;

/**
 * The whole conformance kit on an encrypting store over the in-memory store: every guarantee holds on the
 * decrypted values (idempotent replays compare plaintext, the same document comes back).
 */
class EncryptingInMemoryConformanceTest extends SessionStoreConformance {

  static final KeyProvider KEYS = KeyProvider.of("kit-key", new byte[] {
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
      31, 32});

  @Override
  protected SessionStore newStore(Clock clock) {
    return encrypt(InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build());
  }

  @Override
  protected SessionStore newRetainingStore(Clock clock, RetentionPolicy policy, Duration interval) {
    return encrypt(InMemorySessionStore.builder().clock(clock).modelCallAudit(true).retention(policy, interval)
        .build());
  }

  private static SessionStore encrypt(SessionStore plain) {
    return EncryptingSessionStore.builder(plain).keys(KEYS).build();
  }
}
