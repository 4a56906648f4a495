package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * The per-connection settings of a SQLite store hold on every connection it uses, whatever data source it is given:
 * a data source configured otherwise, and a pool that hands connections out without auto-commit.
 */
class SqliteConnectionSettingsTest {

  @TempDir
  Path folder;

  @Test
  @DisplayName("A data source configured for no sync, no foreign keys and no busy wait gets the store's settings")
  void settingsOverrideTheDataSources() throws SQLException {
    SQLiteConfig config = new SQLiteConfig();
    config.setSynchronous(SQLiteConfig.SynchronousMode.OFF);
    config.enforceForeignKeys(false);
    config.setBusyTimeout(0);
    SQLiteDataSource dataSource = new SQLiteDataSource(config);
    dataSource.setUrl("jdbc:sqlite:" + folder.resolve("configured.db"));
    try (SessionStore store = JdbcSessionStore.builder().dataSource(dataSource).build()) {
      store.events().append("s-1", NewEvent.of("ping"));
      store.runs().save(dev.sessionstore.RunWrite.of("run-1", "s-1"));
      assertThat(store.sessions().delete("s-1")).isTrue();
    }
    try (Connection connection = dataSource.getConnection()) {
      assertThat(pragma(connection, "journal_mode")).isEqualTo("wal"); // kept by the file
      try (Statement statement = connection.createStatement();
           ResultSet rows = statement.executeQuery("SELECT count(*) FROM session_store_runs")) {
        rows.next();
        assertThat(rows.getInt(1)).as("runs left after their session was deleted (foreign keys on)").isZero();
      }
    }
  }

  @Test
  @DisplayName("Connections of a pool without auto-commit are set up each time the store borrows them")
  void pooledConnectionsAreSetUp() throws SQLException {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl("jdbc:sqlite:" + folder.resolve("pooled.db"));
    config.setMaximumPoolSize(1);
    config.setAutoCommit(false);
    try (HikariDataSource pool = new HikariDataSource(config)) {
      try (SessionStore store = JdbcSessionStore.builder().dataSource(pool).notifications(false).build()) {
        store.events().append("s-1", NewEvent.of("ping"));
        assertThat(store.events().lastSeq("s-1")).isEqualTo(1);
        // The one pooled connection, as the store left it.
        assertThat(settings(pool)).containsExactly(Map.entry("journal_mode", "wal"), Map.entry("synchronous", "2"),
            Map.entry("foreign_keys", "1"), Map.entry("busy_timeout", "5000"));
        assertThat(store.sessions().delete("s-1")).isTrue();
      }
    }
  }

  @Test
  @DisplayName("A schema other than the default is refused, naming the setting")
  void aSchemaIsRefused() {
    SQLiteDataSource dataSource = new SQLiteDataSource();
    dataSource.setUrl("jdbc:sqlite:" + folder.resolve("schema.db"));
    assertThatThrownBy(() -> JdbcSessionStore.builder().dataSource(dataSource).schema("agents").build())
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("schema")
        .hasMessageContaining("tablePrefix");
  }

  private static Map<String, String> settings(DataSource dataSource) throws SQLException {
    Map<String, String> settings = new LinkedHashMap<>();
    try (Connection connection = dataSource.getConnection()) {
      for (String name : new String[] {"journal_mode", "synchronous", "foreign_keys", "busy_timeout"}) {
        settings.put(name, pragma(connection, name));
      }
    }
    return settings;
  }

  private static String pragma(Connection connection, String name) throws SQLException {
    try (Statement statement = connection.createStatement();
         ResultSet row = statement.executeQuery("PRAGMA " + name)) {
      row.next();
      return row.getString(1);
    }
  }
}
