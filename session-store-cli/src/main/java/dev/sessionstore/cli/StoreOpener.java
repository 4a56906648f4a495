package dev.sessionstore.cli;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.StoreFailureException;
import dev.sessionstore.jdbc.JdbcSessionStore;
import dev.sessionstore.memory.InMemorySessionStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.sqlite.SQLiteDataSource;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * Opens the store a {@link StoreTarget} names, through the adapters' public builders: the in-memory store, or a
 * {@link JdbcSessionStore} on a SQLite file (a plain {@link SQLiteDataSource}) or on PostgreSQL (a HikariCP pool).
 * Every way this can fail becomes a {@link CliFailure} with its own exit code: a malformed or unsupported URL, an
 * unreachable database, a database (or SQLite file) without the tables, a SQLite file that is not a database, is
 * corrupt or is read-only while the command writes; a store whose SQLite file is read-only is opened for reading for
 * the commands that only read. Every store is opened with its model-call audit on, so that the tool sees (counts,
 * exports, imports, removes) every row a store holds, audit rows included.
 */
final class StoreOpener {

  /** Whether opening may create or upgrade the tables. */
  enum Schema {
    /** Create the tables if missing, upgrade them if old: for commands that write. */
    CREATE_OR_UPGRADE,
    /** Use the tables as they are; fail with {@link ExitCode#NO_SCHEMA} if missing or old: for commands that read. */
    EXISTING
  }

  private static final String SQLITE = "jdbc:sqlite:";
  private static final int POOL_SIZE = 4;
  private static final long CONNECTION_TIMEOUT_MILLIS = 10_000;

  private StoreOpener() {
  }

  static OpenedStore open(StoreTarget target, Schema schema) {
    if (target.isMemory()) {
      return new OpenedStore(InMemorySessionStore.builder().modelCallAudit(true).build(), target, null);
    }
    String url = target.jdbcUrl();
    if (!url.startsWith("jdbc:")) {
      throw new CliFailure(ExitCode.BAD_URL, "not a JDBC URL: " + target.describe()
          + " (expected jdbc:postgresql://host:port/database or jdbc:sqlite:file)");
    }
    if (url.startsWith(SQLITE)) {
      return sqlite(target, schema);
    }
    if (!url.startsWith("jdbc:postgresql:")) {
      throw new CliFailure(ExitCode.BAD_URL, "unsupported database: " + target.describe()
          + " (session-store runs on jdbc:postgresql://host:port/database and jdbc:sqlite:file)");
    }
    requireDriverAccepts(target);
    HikariDataSource pool = pool(target);
    try {
      return new OpenedStore(jdbcStore(target, schema, pool), target, pool);
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
  }

  private static OpenedStore sqlite(StoreTarget target, Schema schema) {
    if (target.schema() != null) {
      throw new CliFailure(ExitCode.USAGE, "--schema applies to PostgreSQL; a SQLite file keeps its tables in its"
          + " main database (use --table-prefix to keep stores apart)");
    }
    String location = target.jdbcUrl().substring(SQLITE.length());
    if (location.isEmpty() || location.startsWith(":memory:") || location.startsWith("file:")) {
      throw new CliFailure(ExitCode.BAD_URL, "unsupported SQLite URL: " + target.describe()
          + " (expected jdbc:sqlite:path/to/file.db)");
    }
    int parameters = location.indexOf('?');
    Path file = Path.of(parameters < 0 ? location : location.substring(0, parameters));
    if (schema == Schema.EXISTING && !Files.isRegularFile(file)) {
      throw new CliFailure(ExitCode.NO_SCHEMA, "no SQLite store at " + file + "; create it with `session-store"
          + " migrate` (or `demo`, `import`)");
    }
    Path folder = file.toAbsolutePath().getParent();
    if (folder != null && !Files.isDirectory(folder)) {
      throw new CliFailure(ExitCode.FILE_ERROR, "cannot create " + file + ": no folder " + folder);
    }
    SQLiteDataSource dataSource = new SQLiteDataSource();
    dataSource.setUrl(target.jdbcUrl());
    try {
      return new OpenedStore(jdbcStore(target, schema, dataSource), target, null);
    } catch (CliFailure failure) {
      if (failure.exitCode() != ExitCode.READ_ONLY || schema != Schema.EXISTING) {
        throw failure;
      }
      return new OpenedStore(jdbcStore(target, schema, readOnly(file)), target, null);
    }
  }

  /**
   * A data source that opens {@code file} for reading only, as SQLite opens a file on read-only media: immutable
   * (no {@code -shm} file, no locks) unless a {@code -wal} file beside it holds commits to read.
   */
  private static SQLiteDataSource readOnly(Path file) {
    boolean hasWal = Files.exists(file.resolveSibling(file.getFileName() + "-wal"));
    SQLiteDataSource dataSource = new SQLiteDataSource();
    dataSource.setUrl("jdbc:sqlite:" + file.toAbsolutePath().toUri() + (hasWal ? "?mode=ro" : "?immutable=1"));
    dataSource.setReadOnly(true);
    return dataSource;
  }
  private static void requireDriverAccepts(StoreTarget target) {
    try {
      DriverManager.getDriver(target.jdbcUrl());
    } catch (SQLException e) {
      throw new CliFailure(ExitCode.BAD_URL, "malformed JDBC URL: " + target.describe(), e);
    }
  }

  private static HikariDataSource pool(StoreTarget target) {
    HikariConfig config = new HikariConfig();
    config.setPoolName("session-store-cli");
    config.setJdbcUrl(target.jdbcUrl());
    config.setMaximumPoolSize(POOL_SIZE);
    config.setConnectionTimeout(CONNECTION_TIMEOUT_MILLIS);
    try {
      return new HikariDataSource(config);
    } catch (HikariPool.PoolInitializationException e) {
      throw new CliFailure(ExitCode.UNREACHABLE, "cannot connect to " + target.describe() + ": "
          + rootMessage(e), e);
    }
  }

  private static JdbcSessionStore jdbcStore(StoreTarget target, Schema schema, DataSource dataSource) {
    JdbcSessionStore.Builder builder = JdbcSessionStore.builder()
        .dataSource(dataSource)
        .modelCallAudit(true)
        .createSchema(schema == Schema.CREATE_OR_UPGRADE);
    try {
      if (target.schema() != null) {
        builder.schema(target.schema());
      }
      if (target.tablePrefix() != null) {
        builder.tablePrefix(target.tablePrefix());
      }
    } catch (InvalidArgumentException e) {
      throw new CliFailure(ExitCode.USAGE, e.getMessage(), e);
    }
    try {
      return builder.build();
    } catch (StoreFailureException e) {
      if (e.isRetryable()) {
        throw new CliFailure(ExitCode.UNREACHABLE, "cannot use " + target.describe() + ": " + e.getMessage(), e);
      }
      ExitCode unusableFile = unusableSqliteFile(e);
      if (unusableFile != null) {
        throw new CliFailure(unusableFile, e.getMessage(), e);
      }
      if (schema == Schema.EXISTING) {
        throw new CliFailure(ExitCode.NO_SCHEMA, target.describe() + " has no session-store tables at the version"
            + " this tool needs; run `session-store migrate` to create or upgrade them (--verbose tells more)", e);
      }
      throw new CliFailure(ExitCode.FAILURE, "cannot open " + target.describe() + ": " + e.getMessage(), e);
    }
  }

  /**
   * The exit code of a SQLite file that cannot hold a store, from the driver's result code behind the failure
   * (the store's message names the problem): not a database, corrupt or truncated, or not writable; else null.
   */
  private static ExitCode unusableSqliteFile(StoreFailureException failure) {
    for (Throwable cause = failure.getCause(); cause != null; cause = cause.getCause()) {
      if (cause instanceof SQLiteException sqlite) {
        int primary = sqlite.getResultCode().code & 0xff;
        if (primary == SQLiteErrorCode.SQLITE_NOTADB.code) {
          return ExitCode.NOT_A_DATABASE;
        }
        if (primary == SQLiteErrorCode.SQLITE_CORRUPT.code) {
          return ExitCode.DAMAGED_DATABASE;
        }
        if (primary == SQLiteErrorCode.SQLITE_CANTOPEN.code || primary == SQLiteErrorCode.SQLITE_READONLY.code) {
          return ExitCode.READ_ONLY;
        }
        return null;
      }
    }
    return null;
  }

  private static String rootMessage(Throwable failure) {
    Throwable cause = failure;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
  }
}
