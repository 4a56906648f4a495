package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.crypto.EncryptingSessionStore;
import dev.sessionstore.crypto.KeyRotationScenario;
import dev.sessionstore.crypto.ReencryptResult;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Key rotation on PostgreSQL ({@link KeyRotationScenario}), checked in the tables themselves: after
 * {@link EncryptingSessionStore#reencrypt} no row of any table names the old key id (in a sealed document's envelope,
 * or in a sealed blob's header, read as hex), where before the pass every sealed value did; with the old key gone
 * from the ring everything reads as written.
 */
class PostgresReencryptionTest {

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

  @Test
  @DisplayName("After the pass no row names the old key; the new key alone reads every value as written")
  void noRowNamesTheOldKey() throws SQLException {
    String schema = TestDatabase.uniqueName("reencrypt");
    schemas.add(schema);
    KeyRotationScenario scenario = new KeyRotationScenario(() -> plain(schema));
    SessionArchive written = scenario.writeUnderOldKey();
    assertThat(rowsNaming(schema, KeyRotationScenario.OLD)).as("rows naming the old key before the pass").hasSize(7);

    ReencryptResult result = scenario.reencrypt();

    assertThat(result.rewritten()).as("values rewritten").isEqualTo(9);
    assertThat(result.complete()).isTrue();
    assertThat(rowsNaming(schema, KeyRotationScenario.OLD)).as("rows naming the old key after the pass").isEmpty();
    scenario.assertReadsUnderNewKeyAlone(written);
  }

  private static SessionStore plain(String schema) {
    return JdbcSessionStore.builder().dataSource(pool).schema(schema).modelCallAudit(true).build();
  }

  /** Every row of every table of {@code schema}, as text, that names {@code keyId} in text or in hex. */
  private static List<String> rowsNaming(String schema, String keyId) throws SQLException {
    return StoredRows.containing(pool, schema, keyId);
  }
}
