package dev.sessionstore.jdbc.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * The HikariCP pool a store opens for a JDBC URL and closes with itself. The only class that names HikariCP, loaded
 * only for {@code jdbcUrl(...)}, so a store on the application's own data source needs no HikariCP on the class path.
 */
public final class OwnPool implements AutoCloseable {

  private final HikariDataSource pool;

  private OwnPool(HikariDataSource pool) {
    this.pool = pool;
  }

  /**
   * Opens a pool named {@code session-store} of at most 10 connections on {@code jdbcUrl}, whose connection timeout
   * and driver timeouts are {@code connectTimeout}; it connects lazily (a database that is down now is the store's
   * to retry, not the pool's to refuse at start).
   */
  public static OwnPool open(String jdbcUrl, Duration connectTimeout) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl);
    config.setPoolName("session-store");
    config.setMaximumPoolSize(10);
    config.setConnectionTimeout(connectTimeout.toMillis());
    config.setDataSourceProperties(FirstConnection.driverProperties(jdbcUrl, connectTimeout));
    config.setInitializationFailTimeout(-1);
    return new OwnPool(new HikariDataSource(config));
  }

  /** The pool, as the store's data source. */
  public DataSource dataSource() {
    return pool;
  }

  /** Closes the pool and its connections; closing twice is fine. */
  @Override
  public void close() {
    pool.close();
  }
}
