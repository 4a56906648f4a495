package dev.sessionstore.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.SessionStore;
import dev.sessionstore.crypto.EncryptingSessionStore;
import dev.sessionstore.crypto.KeyProvider;
import dev.sessionstore.RetentionPolicy;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;

/**
 * The whole conformance kit on encrypting stores over PostgreSQL (peers included, with the same key): every guarantee
 * holds on the decrypted values, idempotent replays included.
 */
class EncryptedPostgresConformanceTest extends PostgresConformanceTest {

  private static final byte[] MASTER_KEY = new byte[32];

  static {
    Arrays.fill(MASTER_KEY, (byte) 7);
  }

  @Override
  SessionStore build(HikariDataSource dataSource, String schema, Clock clock) {
    return encrypt(super.build(dataSource, schema, clock));
  }

  @Override
  protected SessionStore newRetainingStore(Clock clock, RetentionPolicy policy, Duration interval) {
    return encrypt(super.newRetainingStore(clock, policy, interval));
  }

  private static SessionStore encrypt(SessionStore store) {
    return EncryptingSessionStore.builder(store).keys(KeyProvider.of("kit-key", MASTER_KEY)).build();
  }
}
