package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.NewSummary;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.crypto.EncryptingSessionStore;
import dev.sessionstore.crypto.KeyProvider;
import dev.sessionstore.crypto.KeyRing;
import dev.sessionstore.crypto.ReencryptOptions;
import dev.sessionstore.crypto.ReencryptResult;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Key rotation on PostgreSQL, checked in the tables themselves: after {@link EncryptingSessionStore#reencrypt} no row
 * of any table names the old key id (in a sealed document's envelope, or in a sealed blob's header, read as hex),
 * where before the pass every sealed value did; with the old key gone from the ring everything reads as written.
 */
class PostgresReencryptionTest {

  private static final String OLD = "old-key-2025";
  private static final String NEW = "new-key-2026";
  private static HikariDataSource pool;
  private static final List<String> schemas = new ArrayList<>();

  @BeforeAll
  static void openPool() {
    pool = TestDatabase.get().pool("reencryption", 4);
  }

  @AfterAll
  static void dropSchemas() throws SQLException {
    try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
      for (String schema : schemas) {
        statement.execute("DROP SCHEMA \"" + schema + "\" CASCADE");
      }
    } finally {
      pool.close();
    }
  }

  private static byte[] key(int seed) {
    byte[] key = new byte[32];
    Arrays.fill(key, (byte) seed);
    return key;
  }

  private static SessionStore encrypting(SessionStore plain, KeyProvider keys) {
    return EncryptingSessionStore.builder(plain).keys(keys).build();
  }

  @Test
  @DisplayName("After the pass no row names the old key; the new key alone reads every value as written")
  void noRowNamesTheOldKey() throws SQLException {
    String schema = TestDatabase.uniqueName("reencrypt");
    schemas.add(schema);
    SessionArchive written;
    try (SessionStore store = encrypting(plain(schema), KeyProvider.of(OLD, key(1)))) {
      store.events().appendAll("s", List.of(NewEvent.of("message", secret("e1")).withId("e1"),
          NewEvent.of("message", secret("e2")).withId("e2")));
      store.sessions().fork("s", 1);
      store.toolCalls().save(ToolCallWrite.of("c1", "s", "search").withArguments(secret("arguments")));
      store.toolCalls().resolve("s", "c1", ToolCallStatus.COMPLETED, secret("result"));
      store.summaries().put("s", NewSummary.of(1, 2, secret("summary")));
      store.checkpoints().put(CheckpointKey.of("s", "turn"), "turn".getBytes(StandardCharsets.UTF_8));
      store.checkpoints().put(CheckpointKey.global("g"), "global".getBytes(StandardCharsets.UTF_8));
      store.modelCalls().record("s", new NewModelCall(1, "m", secret("context"), secret("usage")));
      written = store.archives().export("s").orElseThrow();
    }
    assertThat(rowsNaming(schema, OLD)).as("rows naming the old key before the pass").hasSize(7);

    ReencryptResult result;
    try (EncryptingSessionStore rotated = EncryptingSessionStore.builder(plain(schema))
        .keys(KeyRing.builder().add(OLD, key(1)).add(NEW, key(2)).current(NEW).build()).build()) {
      result = rotated.reencrypt(ReencryptOptions.defaults());
    }

    assertThat(result.rewritten()).as("values rewritten").isEqualTo(9);
    assertThat(result.complete()).isTrue();
    assertThat(rowsNaming(schema, OLD)).as("rows naming the old key after the pass").isEmpty();
    try (SessionStore alone = encrypting(plain(schema), KeyProvider.of(NEW, key(2)))) {
      assertThat(alone.archives().export("s").orElseThrow()).as("the session under the new key alone")
          .isEqualTo(written);
      assertThat(alone.checkpoints().get(CheckpointKey.global("g")).orElseThrow().data())
          .isEqualTo("global".getBytes(StandardCharsets.UTF_8));
    }
  }

  private static SessionStore plain(String schema) {
    return JdbcSessionStore.builder().dataSource(pool).schema(schema).modelCallAudit(true).build();
  }

  private static Json secret(String kind) {
    return Json.of("{\"text\":\"secret " + kind + "\"}");
  }

  /** Every row of every table of {@code schema}, as text, that names {@code keyId} in text or in hex. */
  private static List<String> rowsNaming(String schema, String keyId) throws SQLException {
    return StoredRows.containing(pool, schema, keyId);
  }
}
