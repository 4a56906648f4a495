package dev.sessionstore.benchmarks;

import dev.sessionstore.SessionStore;
import java.sql.SQLException;

/**
 * A store opened for one benchmark trial, with whatever it needs released afterwards (for PostgreSQL: the pool and
 * the trial's schema). Open one with {@link StoreKind#open()}.
 */
public final class BenchmarkStore implements AutoCloseable {

  /** Releases what a store was opened with, after the store is closed. */
  @FunctionalInterface
  interface Release {
    void run() throws SQLException;
  }

  private final SessionStore store;
  private final Release release;

  BenchmarkStore(SessionStore store, Release release) {
    this.store = store;
    this.release = release;
  }

  /** The open store. */
  public SessionStore store() {
    return store;
  }

  /** Closes the store, then drops what it was opened with. */
  @Override
  public void close() throws SQLException {
    try {
      store.close();
    } finally {
      release.run();
    }
  }
}
