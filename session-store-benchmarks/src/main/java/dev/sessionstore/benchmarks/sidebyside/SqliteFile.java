package dev.sessionstore.benchmarks.sidebyside;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.sqlite.SQLiteDataSource;
import dev.sessionstore.SessionStore;
import dev.sessionstore.benchmarks.Events;
import dev.sessionstore.jdbc.JdbcSessionStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A fresh SQLite database file of its own in a temporary folder, holding the library's tables (the library creates
 * them), with connection pools of identical settings for every side that uses it: at most {@value #POOL_SIZE}
 * connections, each set once to what the library sets every connection it borrows to ({@code journal_mode=WAL},
 * {@code synchronous=NORMAL}, foreign keys on, a 5 s busy timeout), autocommit on. Closing it closes the pools and
 * deletes the file.
 */
final class SqliteFile implements AutoCloseable {

  static final int POOL_SIZE = 4;

  private final Path folder;
  private final Path file;
  private final List<HikariDataSource> pools = new ArrayList<>();

  private SqliteFile(Path folder) {
    this.folder = folder;
    this.file = folder.resolve("sessions.db");
  }

  /** A new file named after {@code purpose}, with the library's tables in it. */
  static SqliteFile withTables(String purpose) throws IOException {
    SqliteFile sqlite = new SqliteFile(Files.createTempDirectory("session_store_sbs_" + purpose + "_"));
    sqlite.openStore().close();
    return sqlite;
  }

  /** A new HikariCP pool on the file, closed with it. */
  HikariDataSource pool() {
    HikariConfig config = new HikariConfig();
    SQLiteDataSource driver = new SQLiteDataSource();
    driver.setUrl("jdbc:sqlite:" + file);
    driver.setJournalMode("WAL");
    driver.setSynchronous("NORMAL");
    driver.setEnforceForeignKeys(true);
    driver.setBusyTimeout(5000);
    config.setDataSource(driver);
    config.setMaximumPoolSize(POOL_SIZE);
    config.setMinimumIdle(1);
    config.setPoolName(folder.getFileName() + "-" + pools.size());
    HikariDataSource pool = new HikariDataSource(config);
    pools.add(pool);
    try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery("SELECT journal_mode, synchronous, foreign_keys, timeout"
            + " FROM pragma_journal_mode, pragma_synchronous, pragma_foreign_keys, pragma_busy_timeout")) {
      row.next();
      String settings = row.getString(1) + "," + row.getInt(2) + "," + row.getInt(3) + "," + row.getInt(4);
      if (!settings.equals("wal,1,1,5000")) {
        throw new IllegalStateException("the pool's connections are not set as the library sets its own: " + settings);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("checking the pool's settings failed", e);
    }
    return pool;
  }

  /** A library store on the file, through a pool of its own. */
  SessionStore openStore() {
    return JdbcSessionStore.builder().dataSource(pool()).build();
  }

  /**
   * Creates session {@code sessionId} with {@code count} events written in one transaction, as the library stores
   * them (seqs 1 to {@code count}, ids {@code fill-<seq>}, chat-turn payloads, the session's last seq at the last),
   * by a recursive query: the library's and the twin's sessions are filled alike and fast.
   */
  void fill(String sessionId, int count) throws SQLException {
    try (Connection connection = pool().getConnection()) {
      connection.setAutoCommit(false);
      long now = System.currentTimeMillis() * 1_000;
      try (PreparedStatement session = connection.prepareStatement("INSERT INTO session_store_sessions"
              + " (id, status, settings, metadata, last_seq, created_at, updated_at)"
              + " VALUES (?, 'active', '{}', '{}', ?, ?, ?)");
          PreparedStatement events = connection.prepareStatement("WITH RECURSIVE g(seq) AS (SELECT 1 UNION ALL"
              + " SELECT seq + 1 FROM g WHERE seq < ?) INSERT INTO session_store_events"
              + " (session_id, seq, id, type, payload, ts) SELECT ?, seq, 'fill-' || seq, 'message',"
              + " json_object('turn', seq, 'text', ?), ? FROM g")) {
        session.setString(1, sessionId);
        session.setLong(2, count);
        session.setLong(3, now);
        session.setLong(4, now);
        session.executeUpdate();
        events.setInt(1, count);
        events.setString(2, sessionId);
        events.setString(3, Events.TEXT);
        events.setLong(4, now);
        events.executeUpdate();
      }
      connection.commit();
    }
  }

  @Override
  public void close() throws IOException {
    pools.forEach(HikariDataSource::close);
    try (var files = Files.list(folder)) {
      for (Path each : files.toList()) {
        Files.deleteIfExists(each);
      }
    }
    Files.deleteIfExists(folder);
  }
}
