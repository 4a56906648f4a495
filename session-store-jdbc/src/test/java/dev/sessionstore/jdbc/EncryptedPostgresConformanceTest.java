package dev.sessionstore.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.ArchiveContract;
import dev.sessionstore.conformance.CheckpointContract;
import dev.sessionstore.conformance.DeadlineContract;
import dev.sessionstore.conformance.EventAppendContract;
import dev.sessionstore.conformance.EventReadContract;
import dev.sessionstore.conformance.ForkContract;
import dev.sessionstore.conformance.KitGroups;
import dev.sessionstore.conformance.ModelCallAuditContract;
import dev.sessionstore.conformance.PayloadContract;
import dev.sessionstore.conformance.SharedBackendContract;
import dev.sessionstore.conformance.StepContract;
import dev.sessionstore.conformance.StoredValuesContract;
import dev.sessionstore.conformance.SummaryContract;
import dev.sessionstore.conformance.ToolCallContract;
import dev.sessionstore.conformance.ToolCallWaitContract;
import dev.sessionstore.conformance.WaitingReadContract;
import dev.sessionstore.crypto.EncryptingSessionStore;
import dev.sessionstore.crypto.KeyProvider;
import dev.sessionstore.RetentionPolicy;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;

/**
 * The kit's groups that write or read sealed values, on encrypting stores over PostgreSQL (peers included, with the
 * same key): every guarantee holds on the decrypted values, idempotent replays, forks (read under the parent's key),
 * archives and values the adapter writes itself (an expired call's result) included. The other groups check ids,
 * seqs, names, statuses and arguments, which the decorator leaves in clear and checks as the in-memory store does:
 * the whole kit runs on the encrypting in-memory store (session-store-crypto) and on the plain PostgreSQL store.
 */
@KitGroups(value = {PayloadContract.class, EventAppendContract.class, EventReadContract.class, StepContract.class,
    ToolCallContract.class, ToolCallWaitContract.class, DeadlineContract.class, SummaryContract.class,
    CheckpointContract.class, ModelCallAuditContract.class, ArchiveContract.class, StoredValuesContract.class,
    ForkContract.class, WaitingReadContract.class, SharedBackendContract.class},
    reason = "it checks no sealed value: the whole kit runs on the encrypting in-memory store and on the plain"
        + " PostgreSQL store")
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
