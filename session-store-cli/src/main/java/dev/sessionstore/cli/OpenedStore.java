package dev.sessionstore.cli;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.SessionStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.OptionalLong;

/**
 * A store a command opened, with the connection pool behind it (if any). Closing closes the store, then the pool.
 *
 * @param store  the store
 * @param target where it lives
 * @param pool   the PostgreSQL connection pool, closed after the store; {@code null} for other stores
 * @param file   the SQLite file; {@code null} for other stores
 */
record OpenedStore(SessionStore store, StoreTarget target, HikariDataSource pool, Path file)
    implements AutoCloseable {

  /**
   * The size of the database on disk, where it is cheap to ask: a SQLite file with its write-ahead log, PostgreSQL's
   * {@code pg_database_size}.
   */
  OptionalLong sizeInBytes() {
    if (file != null) {
      Path log = file.resolveSibling(file.getFileName() + "-wal");
      try {
        return OptionalLong.of(Files.size(file) + (Files.exists(log) ? Files.size(log) : 0));
      } catch (IOException e) {
        return OptionalLong.empty();
      }
    }
    if (pool == null) {
      return OptionalLong.empty();
    }
    try (Connection connection = pool.getConnection();
         Statement statement = connection.createStatement();
         ResultSet size = statement.executeQuery("SELECT pg_database_size(current_database())")) {
      return size.next() ? OptionalLong.of(size.getLong(1)) : OptionalLong.empty();
    } catch (SQLException e) {
      return OptionalLong.empty();
    }
  }

  @Override
  public void close() {
    try {
      store.close();
    } finally {
      if (pool != null) {
        pool.close();
      }
    }
  }
}
