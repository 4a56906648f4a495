package dev.sessionstore.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * A SQLite database file in a temporary folder, shared by every store and process of the tests of this JVM that use
 * it; each test keeps its tables apart under a table prefix of its own ({@link Stores#open}). The folder is removed
 * when the JVM exits.
 */
final class SqliteFile implements Database {

  private static Database instance;

  private final Path file;

  private SqliteFile(Path file) {
    this.file = file;
  }

  /** The file of this JVM, created on first use. */
  static synchronized Database get() {
    if (instance == null) {
      try {
        Path folder = Files.createTempDirectory("session-store-sqlite-");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(folder)));
        instance = new SqliteFile(folder.resolve("reliability.db"));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return instance;
  }

  @Override
  public String description() {
    return "SQLite file " + file;
  }

  @Override
  public String jdbcUrl() {
    return "jdbc:sqlite:" + file;
  }

  @Override
  public Connection adminConnection() throws SQLException {
    return DriverManager.getConnection(jdbcUrl());
  }

  @Override
  public void close() {
    // shared for the JVM's lifetime
  }

  private static void delete(Path folder) {
    try (var files = Files.list(folder)) {
      for (Path path : files.toList()) {
        Files.deleteIfExists(path);
      }
      Files.deleteIfExists(folder);
    } catch (IOException e) {
      // a temporary folder; the system cleans it up
    }
  }
}
