package dev.sessionstore.jdbc.internal;

import dev.sessionstore.StoreFailureException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;
import org.postgresql.util.PSQLException;
import org.sqlite.SQLiteException;

/**
 * The first connection a store makes while it is built, and what its failure means: a store that cannot start says
 * why within its connect timeout, in the driver's words, and whether the same build may succeed later. A database
 * that refuses connections or cannot be reached (it may be starting) is asked again within the timeout and then
 * reported retryable; one that answers with a refusal that needs a fix first (a wrong user or password, a missing
 * database, a SQLite file in a folder that does not exist) is reported at once, not retryable; so is a SQLite file
 * that cannot hold a store ({@link SqliteFile}).
 */
public final class FirstConnection {

  private FirstConnection() {
  }

  /**
   * Connects to {@code jdbcUrl} through its driver directly (no pool, whose own wait would hide the driver's answer
   * behind its timeout), asking again within {@code timeout} while the database cannot be reached, and closes the
   * connection again. A PostgreSQL URL gets pgjdbc's {@code connectTimeout} and {@code loginTimeout} of the timeout,
   * rounded up to seconds, unless it sets them itself.
   *
   * @throws StoreFailureException with the driver's reason if no connection could be had
   */
  public static void check(String jdbcUrl, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    RetryPause pause = RetryPause.afterLostConnection(deadline);
    while (true) {
      try {
        Driver driver = DriverManager.getDriver(jdbcUrl);
        try (Connection connection = driver.connect(jdbcUrl, driverProperties(jdbcUrl, timeout))) {
          if (connection == null) {
            throw new SQLException("the JDBC driver does not take the URL");
          }
          if (jdbcUrl.startsWith("jdbc:sqlite:")) {
            SqliteFile.check(connection);
          }
          return;
        }
      } catch (SQLException e) {
        StoreFailureException failure = failure(e, missingFolder(jdbcUrl));
        if (!failure.isRetryable() || !pause.pause()) {
          throw failure;
        }
      }
    }
  }

  /** The properties that bound one connection attempt of {@code jdbcUrl}'s driver by {@code timeout}. */
  public static Properties driverProperties(String jdbcUrl, Duration timeout) {
    Properties properties = new Properties();
    if (jdbcUrl.toLowerCase(Locale.ROOT).startsWith("jdbc:postgresql:")) {
      String seconds = Long.toString(Math.max(1, (timeout.toMillis() + 999) / 1000));
      properties.setProperty("connectTimeout", seconds);
      properties.setProperty("loginTimeout", seconds);
    }
    return properties;
  }

  /**
   * The build failure {@code error} makes, from the driver's own reason for it: the innermost error a driver
   * raised in its chain (a pool's timeout names the database's refusal as its cause), in the database's words with
   * its SQLState; retryable when the database could not be reached or was not ready, not when it refused what the
   * configuration asked for.
   */
  public static StoreFailureException failure(SQLException error) {
    return failure(error, "");
  }

  private static StoreFailureException failure(SQLException error, String detail) {
    SQLException reason = driverReason(error);
    boolean retryable = isRetryable(reason);
    String message = DriverLibrary.POSTGRESQL.isPresent() && reason instanceof PSQLException psql
        && psql.getServerErrorMessage() != null
        && psql.getServerErrorMessage().getMessage() != null ? psql.getServerErrorMessage().getMessage()
        : String.valueOf(reason.getMessage());
    message += detail;
    return new StoreFailureException("cannot connect to the database: "
        + (reason.getSQLState() == null ? "" : "[" + reason.getSQLState() + "] ") + message
        + (retryable ? " (retryable: the database could not be reached or was not ready; a later build may succeed)"
            : " (not retryable: fix the configuration or the database first)"), retryable, error);
  }

  /**
   * For a SQLite URL naming a file whose folder does not exist, {@code ": the folder <path> does not exist"} (the
   * driver says only that it cannot open the file); else empty.
   */
  private static String missingFolder(String jdbcUrl) {
    if (!jdbcUrl.startsWith("jdbc:sqlite:")) {
      return "";
    }
    String file = jdbcUrl.substring("jdbc:sqlite:".length());
    int query = file.indexOf('?');
    file = query < 0 ? file : file.substring(0, query);
    if (file.startsWith("file:") || file.isEmpty() || file.startsWith(":")) {
      return "";
    }
    try {
      Path folder = Path.of(file).toAbsolutePath().getParent();
      return folder == null || Files.isDirectory(folder) ? "" : ": the folder " + folder + " does not exist";
    } catch (InvalidPathException e) {
      return "";
    }
  }

  private static SQLException driverReason(SQLException error) {
    SQLException reason = error;
    for (Throwable cause = error.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
      if (cause instanceof SQLException sql) {
        reason = sql;
      }
    }
    return reason;
  }

  private static boolean isRetryable(SQLException reason) {
    // Each driver's class is named only once that driver is known to be there: the other may be absent.
    if (DriverLibrary.POSTGRESQL.isPresent() && reason instanceof PSQLException) {
      return new PostgresDialect().classify(reason).kind().retryable();
    }
    if (DriverLibrary.SQLITE.isPresent() && reason instanceof SQLiteException) {
      return new SqliteDialect().classify(reason).kind().retryable();
    }
    return reason instanceof SQLTransientConnectionException || reason instanceof SQLRecoverableException
        || reason.getSQLState() != null && reason.getSQLState().startsWith("08");
  }
}
