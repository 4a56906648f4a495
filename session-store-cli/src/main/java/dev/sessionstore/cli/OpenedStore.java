package dev.sessionstore.cli;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.SessionStore;

/**
 * A store a command opened, with the connection pool behind it (if any). Closing closes the store, then the pool.
 *
 * @param store  the store
 * @param target where it lives
 * @param pool   the PostgreSQL connection pool, closed after the store; {@code null} for other stores
 */
record OpenedStore(SessionStore store, StoreTarget target, HikariDataSource pool)
    implements AutoCloseable {

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
