package dev.sessionstore.jdbc.internal;

import dev.sessionstore.StoreFailureException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns the versioned schema of one store (schema + prefix). The scripts ship as resources in the dialect's folder
 * ({@code V<n>__<description>.sql}, with {@code ${schema}} and {@code ${prefix}} placeholders); the table
 * {@code <prefix>schema_version} records which ran.
 *
 * <p>{@link #migrate} runs the missing scripts, each in its own transaction with its version row, while holding an
 * advisory lock derived from schema and prefix: nodes starting together wait for one another, and the later ones
 * find nothing left to do. {@link #verify} only checks the recorded version, for deployments that migrate
 * separately and run the store under a role without DDL privileges.
 */
final class SchemaMigrator {

  private static final Logger LOG = LoggerFactory.getLogger(SchemaMigrator.class);

  /** One script. */
  record Migration(int version, String description) {

    String resource() {
      return "V" + version + "__" + description + ".sql";
    }
  }

  /** Every script, in order; the last one's version is the one this library needs. */
  static final List<Migration> MIGRATIONS = List.of(new Migration(1, "schema"));

  private final Database database;
  private final Tables tables;

  SchemaMigrator(Database database, Tables tables) {
    this.database = database;
    this.tables = tables;
  }

  static int requiredVersion() {
    return MIGRATIONS.get(MIGRATIONS.size() - 1).version();
  }

  /** Creates the schema if missing and runs every script not recorded yet. */
  void migrate() {
    database.autoCommit("migrate schema " + tables.schemaName(), connection -> {
      long lockKey = tables.migrationLockKey();
      Sql.first(connection, database.dialect().acquireMigrationLock(), row -> true, lockKey);
      try {
        createSchemaAndVersionTable(connection);
        int current = recordedVersion(connection);
        for (Migration migration : MIGRATIONS) {
          if (migration.version() > current) {
            apply(connection, migration);
          }
        }
        if (current > requiredVersion()) {
          LOG.warn("session-store: schema {} (prefix \"{}\") is at version {}, newer than this library's {}",
              tables.schemaName(), tables.prefix(), current, requiredVersion());
        }
      } finally {
        Sql.first(connection, database.dialect().releaseMigrationLock(), row -> true, lockKey);
      }
      return null;
    });
  }

  /**
   * Checks that the schema holds this store's tables at the version this library needs.
   *
   * @throws StoreFailureException if they are missing or older
   */
  void verify() {
    int current = database.read("check schema " + tables.schemaName(), this::recordedVersionIfAny);
    if (current < requiredVersion()) {
      throw new StoreFailureException("session-store: schema \"" + tables.schemaName() + "\" with table prefix \""
          + tables.prefix() + "\" is at version " + current + " but this library needs version "
          + requiredVersion() + ": apply the scripts in " + database.dialect().migrationFolder() + " (V"
          + (current + 1) + " onwards), or build the store with createSchema(true)", null);
    }
  }

  private void createSchemaAndVersionTable(Connection connection) throws SQLException {
    boolean schemaExists = Sql.first(connection,
        "SELECT 1 FROM information_schema.schemata WHERE schema_name = ?", row -> true, tables.schemaName())
        .isPresent();
    try (Statement statement = connection.createStatement()) {
      if (!schemaExists) {
        statement.execute("CREATE SCHEMA IF NOT EXISTS " + tables.quotedSchema());
      }
      statement.execute("CREATE TABLE IF NOT EXISTS " + tables.schemaVersion() + " ("
          + "version integer PRIMARY KEY, "
          + "description text NOT NULL, "
          + "installed_at timestamptz NOT NULL DEFAULT now())");
    }
  }

  private int recordedVersionIfAny(Connection connection) throws SQLException {
    boolean tableExists = Sql.first(connection,
        "SELECT 1 FROM information_schema.tables WHERE table_schema = ? AND table_name = ?", row -> true,
        tables.schemaName(), tables.schemaVersionTableName()).isPresent();
    return tableExists ? recordedVersion(connection) : 0;
  }

  private int recordedVersion(Connection connection) throws SQLException {
    return Sql.first(connection, "SELECT coalesce(max(version), 0) FROM " + tables.schemaVersion(),
        row -> row.getInt(1)).orElse(0);
  }

  private void apply(Connection connection, Migration migration) throws SQLException {
    String script = load(migration)
        .replace("${schema}", tables.quotedSchema())
        .replace("${prefix}", tables.prefix());
    connection.setAutoCommit(false);
    try (Statement statement = connection.createStatement()) {
      statement.execute(script);
      Sql.update(connection, "INSERT INTO " + tables.schemaVersion() + " (version, description) VALUES (?, ?)",
          migration.version(), migration.description());
      connection.commit();
    } catch (SQLException | RuntimeException e) {
      connection.rollback();
      throw e;
    } finally {
      connection.setAutoCommit(true);
    }
    LOG.info("session-store: schema {} (prefix \"{}\") migrated to version {} ({})", tables.schemaName(),
        tables.prefix(), migration.version(), migration.description());
  }

  private String load(Migration migration) {
    String path = database.dialect().migrationFolder() + migration.resource();
    try (InputStream in = SchemaMigrator.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("migration script missing from the classpath: " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read migration script " + path, e);
    }
  }
}
