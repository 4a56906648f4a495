package dev.sessionstore.jdbc.internal;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.StoreFailureException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * Chooses the {@link Dialect} of the database behind a data source, from its connections' metadata: the product
 * name, else the JDBC URL: PostgreSQL or SQLite.
 */
final class Dialects {

  private Dialects() {
  }

  /**
   * The dialect of {@code dataSource}'s database, asked on a connection borrowed for a moment. A connection that
   * cannot be had for want of the database (refused, lost, a pool timing out) is asked for again, with growing
   * pauses, for up to {@code timeout} (each attempt bounded by the data source's own connection timeout); one the
   * database refused for a reason that needs a fix first fails at once ({@link FirstConnection#failure}), and so does
   * a SQLite file that cannot hold a store ({@link SqliteFile}).
   *
   * @throws InvalidArgumentException naming {@code dataSource} if its database is not a supported one, or its
   *                                  driver is missing or below the version the store needs
   * @throws StoreFailureException    if no connection could be had, with the driver's reason, or the SQLite file
   *                                  cannot hold a store
   */
  static Dialect of(DataSource dataSource, Duration timeout) {
    RetryPause pause = RetryPause.afterLostConnection(System.nanoTime() + timeout.toNanos());
    while (true) {
      try (Connection connection = dataSource.getConnection()) {
        Dialect dialect = of(connection.getMetaData());
        if (dialect instanceof SqliteDialect) {
          SqliteFile.check(connection);
        }
        return dialect;
      } catch (SQLException e) {
        StoreFailureException failure = FirstConnection.failure(e);
        if (!failure.isRetryable() || !pause.pause()) {
          throw failure;
        }
      }
    }
  }

  /**
   * The dialect of the database {@code metaData} describes.
   *
   * @throws InvalidArgumentException naming {@code dataSource} if it is not a supported one, or its driver
   *                                  ({@link DriverLibrary}) is missing or below the version the store needs
   */
  static Dialect of(DatabaseMetaData metaData) throws SQLException {
    String product = metaData.getDatabaseProductName();
    String url = metaData.getURL();
    String scheme = url == null ? "" : url.toLowerCase(Locale.ROOT);
    if ("PostgreSQL".equalsIgnoreCase(product) || scheme.startsWith("jdbc:postgresql:")) {
      return supported(DriverLibrary.POSTGRESQL, PostgresDialect::new);
    }
    if ("SQLite".equalsIgnoreCase(product) || scheme.startsWith("jdbc:sqlite:")) {
      return supported(DriverLibrary.SQLITE, SqliteDialect::new);
    }
    throw new InvalidArgumentException("dataSource", "its database is " + (product == null ? "unnamed" : product)
        + " (JDBC URL " + scheme(url) + "), which session-store does not support: use PostgreSQL or SQLite");
  }

  /**
   * The dialect, once its driver is known to be on the store's class path (a data source of another driver, or one
   * loaded where the store cannot see it, still needs it: the dialect speaks to it) at a version the store accepts.
   */
  private static Dialect supported(DriverLibrary driver, Supplier<Dialect> dialect) {
    driver.require("dataSource", "its database is spoken to through");
    driver.checkVersion("dataSource");
    return dialect.get();
  }

  /** The URL's {@code jdbc:<subprotocol>:} only: the rest may hold hosts, users and passwords. */
  private static String scheme(String url) {
    if (url == null) {
      return "unknown";
    }
    int end = url.indexOf(':', "jdbc:".length());
    return end < 0 ? "unknown" : url.substring(0, end + 1) + "…";
  }
}
