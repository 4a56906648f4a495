package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.SearchQuery;
import dev.sessionstore.SessionStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link SearchScenarios} on PostgreSQL (a schema per test), and the migration that indexes older events. */
class PostgresSearchTest extends SearchScenarios {

  private final TestSchema schema = new TestSchema();

  @AfterEach
  void drop() {
    schema.close();
  }

  @Override
  SessionStore store() {
    return schema.store(builder -> builder);
  }

  @Test
  @DisplayName("Migrating a version 4 schema to 5 indexes the events stored before it, in its transaction")
  void migrationIndexesOlderEvents() throws SQLException {
    String quoted = "\"" + schema.name() + "\"";
    try (Connection connection = TestDatabase.get().adminDataSource().getConnection();
         Statement statement = connection.createStatement()) {
      statement.execute("CREATE SCHEMA " + quoted);
      OlderSchema.createAtVersion(connection, "postgresql", quoted, 4);
      // 2,500 events (more than one chunk of the migration's reads) through the version 4 append function.
      statement.execute("SELECT " + quoted + ".session_store_append_fresh('old-' || g % 3, NULL::bigint,"
          + " now(), ARRAY['e-' || g], ARRAY['message'], NULL::text[], NULL::text[], NULL::text[],"
          + " ARRAY['{\"text\":\"word' || g || ' shared\"}']::json[], ARRAY[now()]) FROM generate_series(1, 2500) AS g ORDER BY g");
    }
    SessionStore store = store();
    assertThat(store.schemaVersion()).hasValue(8);
    assertThat(found(store, SearchQuery.of("word1234"))).containsExactly("old-1#412");
    assertThat(store.search().find(SearchQuery.of("shared").limit(100)).nextCursor()).isPresent();
    assertThat(schema.queryValue("SELECT count(*) FROM " + quoted + ".session_store_events WHERE words IS NULL"))
        .isEqualTo(0L);
  }
}
