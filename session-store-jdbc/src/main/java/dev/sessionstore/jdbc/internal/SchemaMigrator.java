package dev.sessionstore.jdbc.internal;

import dev.sessionstore.StoreFailureException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns the versioned schema of one store (schema + prefix). The scripts ship as resources in the dialect's folder
 * ({@code V<n>__<description>.sql}, with {@code ${schema}} and {@code ${prefix}} placeholders); the table
 * {@code <prefix>schema_version} records which ran.
 *
 * <p>{@link #migrate} runs the missing scripts with their version rows in one transaction that first takes the
 * dialect's migration lock for schema and prefix (PostgreSQL: a transaction-scoped advisory lock, so a failure or a
 * lost connection can never leave it held, and no unlock can hide the error that ended the migration): nodes
 * starting together wait for one another, and the later ones find nothing left to do. A node waits for the lock at
 * most the lock timeout, then fails with a retryable {@link StoreFailureException} naming the wait, so one hung node
 * cannot keep every other from starting. The whole migration commits or none of it does. {@link #verify} only checks the recorded version, for deployments that migrate
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
  static final List<Migration> MIGRATIONS =
      List.of(new Migration(1, "schema"), new Migration(2, "writer_fencing"),
          new Migration(3, "retention"), new Migration(4, "append_fresh"), new Migration(5, "search"),
          new Migration(6, "expiry"), new Migration(7, "search_writes"),
          new Migration(8, "append_one_without_subtransaction"));

  private final Database database;
  private final Tables tables;
  private final Sql sql;
  private final Duration lockTimeout;

  /** @param lockTimeout how long {@link #migrate} waits for another node's migration before it fails */
  SchemaMigrator(Database database, Tables tables, Duration lockTimeout) {
    this.database = database;
    this.tables = tables;
    this.sql = new Sql(database.dialect());
    this.lockTimeout = lockTimeout;
  }

  static int requiredVersion() {
    return MIGRATIONS.get(MIGRATIONS.size() - 1).version();
  }

  /**
   * Creates the schema if missing and runs every script not recorded yet, all in one transaction under the
   * migration lock.
   *
   * @return the version the schema records after the migration: this library's, or a newer one a newer library
   *     recorded
   * @throws StoreFailureException (retryable) if another node held the lock for longer than the lock timeout
   */
  int migrate() {
    Migrated migrated = database.transaction("migrate schema " + tables.schemaName(), connection -> {
      lock(connection);
      Dialect dialect = database.dialect();
      dialect.createSchemaAndVersionTable(connection, tables);
      int current = recordedVersion(connection);
      List<Migration> missing = MIGRATIONS.stream().filter(migration -> migration.version() > current).toList();
      for (Migration migration : missing) {
        dialect.runScript(connection, script(migration));
        sql.update(connection, "INSERT INTO " + tables.schemaVersion() + " (version, description) VALUES (?, ?)",
            migration.version(), migration.description());
      }
      if (current > requiredVersion()) {
        LOG.warn("session-store: schema {} (prefix \"{}\") is at version {}, newer than this library's {}",
            tables.schemaName(), tables.prefix(), current, requiredVersion());
      }
      return new Migrated(Math.max(current, requiredVersion()), missing);
    });
    for (Migration migration : migrated.applied()) {
      LOG.info("session-store: schema {} (prefix \"{}\") migrated to version {} ({})", tables.schemaName(),
          tables.prefix(), migration.version(), migration.description());
    }
    return migrated.version();
  }

  /** What a migration left: the recorded version, and the scripts it ran to get there. */
  private record Migrated(int version, List<Migration> applied) {
  }

  /** Takes the migration lock, or fails naming the wait when another node holds it past the timeout. */
  private void lock(Connection connection) throws SQLException {
    try {
      database.dialect().lockForMigration(connection, tables, lockTimeout);
    } catch (SQLException e) {
      if (database.dialect().classify(e).kind() != SqlFailure.Kind.TRANSIENT) {
        throw e;
      }
      throw new StoreFailureException("schema \"" + tables.schemaName() + "\" with table prefix \""
          + tables.prefix() + "\" is being migrated by another node, which has held its migration lock for more than "
          + lockTimeout.toMillis() + " ms (migrationLockTimeout); that node may be hung. Building again is safe once it"
          + " has finished or stopped: " + database.dialect().message(e), true, e);
    }
  }

  /**
   * Checks that the schema holds this store's tables at the version this library needs.
   *
   * @return the version the schema records: this library's, or a newer one a newer library recorded
   * @throws StoreFailureException if they are missing or older
   */
  int verify() {
    int current = database.read("check schema " + tables.schemaName(), this::recordedVersionIfAny);
    if (current < requiredVersion()) {
      throw new StoreFailureException("schema \"" + tables.schemaName() + "\" with table prefix \""
          + tables.prefix() + "\" is at version " + current + " but this library needs version "
          + requiredVersion() + ": apply the scripts in " + database.dialect().migrationFolder() + " (V"
          + (current + 1) + " onwards), or build the store with createSchema(true)", null);
    }
    return current;
  }

  private int recordedVersionIfAny(Connection connection) throws SQLException {
    return database.dialect().versionTableExists(connection, tables) ? recordedVersion(connection) : 0;
  }

  private int recordedVersion(Connection connection) throws SQLException {
    return sql.first(connection, "SELECT coalesce(max(version), 0) FROM " + tables.schemaVersion(),
        row -> row.getInt(1)).orElse(0);
  }

  /** The script of {@code migration} for this schema and prefix. */
  private String script(Migration migration) {
    return load(migration).replace("${schema}", tables.quotedSchema()).replace("${prefix}", tables.prefix());
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
