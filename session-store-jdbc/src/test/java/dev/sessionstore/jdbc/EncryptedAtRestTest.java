package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.NewSummary;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Step;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.crypto.EncryptingSessionStore;
import dev.sessionstore.crypto.KeyProvider;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Reads the PostgreSQL tables of an encrypting store directly, every row of every table as text (bytea as hex), and
 * finds no plaintext of any sealed kind: event payloads, tool-call arguments and results, summaries, session and
 * global checkpoints, model-call contexts. The same scan over a plain store finds each of them, so it can fail.
 */
class EncryptedAtRestTest {

  private static final String SECRET = "launch code 4711";
  private static HikariDataSource pool;
  private static final List<String> schemas = new ArrayList<>();

  @BeforeAll
  static void openPool() {
    pool = TestDatabase.get().pool("encrypted-at-rest", 4);
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

  @Test
  @DisplayName("No table of an encrypting store holds a sealed value's plaintext; a plain store's rows hold all seven")
  void noPlaintextInTheTables() throws SQLException {
    byte[] key = new byte[32];
    Arrays.fill(key, (byte) 3);
    String plainSchema = write(plain -> plain);
    String sealedSchema = write(plain -> EncryptingSessionStore.builder(plain).keys(KeyProvider.of("k1", key))
        .build());

    assertThat(rowsHolding(plainSchema)).as("rows of the plain store holding a secret (a tool call holds two)")
        .hasSize(6);
    assertThat(rowsHolding(sealedSchema)).as("rows of the encrypting store holding a secret").isEmpty();
  }

  /** Writes one secret of each sealed kind through {@code wrap} of a new store on a new schema; returns the schema. */
  private static String write(UnaryOperator<SessionStore> wrap) {
    String schema = TestDatabase.uniqueName("at_rest");
    schemas.add(schema);
    try (SessionStore store = wrap.apply(JdbcSessionStore.builder().dataSource(pool).schema(schema)
        .modelCallAudit(true).build())) {
      store.commit(Step.builder("s")
          .event(NewEvent.of("message", secret("event")).withId("e1"))
          .registerToolCall(ToolCallWrite.of("c1", "s", "search").withArguments(secret("arguments")))
          .putCheckpoint("turn", (SECRET + " checkpoint").getBytes(StandardCharsets.UTF_8))
          .modelCall(NewModelCall.of(1, "model", secret("context")))
          .build());
      store.toolCalls().resolve("s", "c1", ToolCallStatus.COMPLETED, secret("result"));
      store.summaries().put("s", NewSummary.of(1, 1, secret("summary")));
      store.checkpoints().put(CheckpointKey.global("g"), (SECRET + " global").getBytes(StandardCharsets.UTF_8));
      assertThat(store.events().find("s", "e1").orElseThrow().payload()).isEqualTo(secret("event"));
    }
    return schema;
  }

  private static Json secret(String kind) {
    return Json.of("{\"text\":\"" + SECRET + " " + kind + "\"}");
  }

  /** Every row of every table of {@code schema}, as text, that holds the secret in text or in hex. */
  private static List<String> rowsHolding(String schema) throws SQLException {
    assertThat(StoredRows.tables(pool, schema)).as("tables of %s", schema).hasSizeGreaterThan(5);
    return StoredRows.containing(pool, schema, SECRET);
  }
}
