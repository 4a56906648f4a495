package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.SearchQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.spi.SearchText;
import dev.sessionstore.spi.StoredJson;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.Function;
import org.sqlite.SQLiteDataSource;

/**
 * {@link SearchScenarios} on SQLite (a file per test), the migrations that index older events (version 5) and drop
 * the triggers (version 7), and VACUUM.
 */
class SqliteSearchTest extends SearchScenarios {

  private static final AtomicInteger FILES = new AtomicInteger();

  @TempDir
  static Path folder;

  private Path file;
  private SessionStore store;

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
  }

  @Override
  SessionStore store() {
    file = folder.resolve("search-" + FILES.incrementAndGet() + ".db");
    store = JdbcSessionStore.builder().dataSource(SqliteConformanceTest.dataSource(file)).build();
    return store;
  }

  @Test
  @DisplayName("Migrating a version 4 file to 5 indexes the events stored before it, in its transaction")
  void migrationIndexesOlderEvents() throws SQLException {
    Path older = folder.resolve("older-" + FILES.incrementAndGet() + ".db");
    SQLiteDataSource dataSource = SqliteConformanceTest.dataSource(older);
    try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
      OlderSchema.createAtVersion(connection, "sqlite", "main", 4);
      statement.executeUpdate("INSERT INTO session_store_sessions (id, status, settings, metadata, last_seq,"
          + " created_at, updated_at) VALUES ('old', 'active', '{}', '{}', 2500, 0, 0)");
      statement.executeUpdate("WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 2500)"
          + " INSERT INTO session_store_events (session_id, seq, id, type, payload, ts)"
          + " SELECT 'old', n, 'e-' || n, 'message', '{\"text\":\"word' || n || ' shared\"}', 0 FROM g");
    }
    store = JdbcSessionStore.builder().dataSource(dataSource).build();
    assertThat(store.schemaVersion()).hasValue(8);
    assertThat(found(store, SearchQuery.of("word1234"))).containsExactly("old#1234");
    assertThat(store.search().find(SearchQuery.of("shared").limit(100)).nextCursor()).isPresent();
  }

  @Test
  @DisplayName("Migrating a version 6 file to 7 drops the triggers that called the function and keeps the index exact;"
      + " a writer without the function can insert events again")
  void migrationFromTriggersKeepsTheIndex() throws SQLException {
    Path older = folder.resolve("older-" + FILES.incrementAndGet() + ".db");
    SQLiteDataSource dataSource = SqliteConformanceTest.dataSource(older);
    try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
      Function.create(connection, "session_store_words", new Function() {
        @Override
        protected void xFunc() throws SQLException {
          result(SearchText.indexText(StoredJson.of(value_text(0))));
        }
      });
      OlderSchema.createAtVersion(connection, "sqlite", "main", 6);
      statement.executeUpdate("INSERT INTO session_store_sessions (id, status, settings, metadata, last_seq,"
          + " created_at, updated_at) VALUES ('old', 'active', '{}', '{}', 3, 0, 0)");
      statement.executeUpdate("INSERT INTO session_store_events (session_id, seq, id, type, payload, ts) VALUES"
          + " ('old', 1, 'e-1', 'message', '{\"text\":\"alpha one\"}', 0),"
          + " ('old', 2, 'e-2', 'message', '{\"text\":\"beta two\"}', 0),"
          + " ('old', 3, 'e-3', 'message', '{\"text\":\"alpha three\"}', 0)");
      statement.executeUpdate("UPDATE session_store_events SET payload = '{\"text\":\"gamma two\"}'"
          + " WHERE session_id = 'old' AND seq = 2");
    }
    store = JdbcSessionStore.builder().dataSource(dataSource).build();
    assertThat(store.schemaVersion()).hasValue(8);
    assertThat(found(store, SearchQuery.of("alpha"))).containsExactlyInAnyOrder("old#1", "old#3");
    assertThat(found(store, SearchQuery.of("gamma"))).containsExactly("old#2");
    assertThat(found(store, SearchQuery.of("beta"))).isEmpty();
    store.events().append("old", said("alpha four"));
    assertThat(found(store, SearchQuery.of("alpha"))).containsExactlyInAnyOrder("old#1", "old#3", "old#4");
    try (Connection plain = dataSource.getConnection(); Statement statement = plain.createStatement()) {
      assertThat(statement.executeQuery("SELECT group_concat(name) FROM sqlite_master WHERE type = 'trigger'")
          .getString(1)).isEqualTo("session_store_events_search_delete");
      statement.executeUpdate("INSERT INTO session_store_events (session_id, seq, id, type, payload, ts) VALUES"
          + " ('old', 5, 'e-5', 'message', '{\"text\":\"foreign\"}', 0)");
    }
    assertThat(found(store, SearchQuery.of("alpha"))).containsExactlyInAnyOrder("old#1", "old#3", "old#4");
  }

  @Test
  @DisplayName("VACUUM after deletions keeps each event's rowid, which the index names")
  void vacuumKeepsRowids() throws SQLException {
    SessionStore store = store();
    for (int i = 0; i < 50; i++) {
      store.events().append("gone-" + i, said("filler " + i));
    }
    store.events().append("kept", said("needle"));
    for (int i = 0; i < 50; i++) {
      store.sessions().delete("gone-" + i);
    }
    try (Connection connection = SqliteConformanceTest.dataSource(file).getConnection();
         Statement statement = connection.createStatement()) {
      statement.executeUpdate("VACUUM");
    }
    store.events().append("later", said("needle"));
    assertThat(found(store, SearchQuery.of("needle"))).containsExactlyInAnyOrder("kept#1", "later#1");
    assertThat(found(store, SearchQuery.of("filler"))).isEmpty();
  }
}
