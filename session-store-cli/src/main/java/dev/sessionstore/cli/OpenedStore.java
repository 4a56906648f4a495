package dev.sessionstore.cli;

import dev.sessionstore.SessionStore;

/**
 * A store a command opened, with the connection pool behind it (if any). Closing closes the store, then the pool.
 *
 * @param store  the store
 * @param target where it lives
 * @param pool   what to close after the store, or {@code null}
 */
record OpenedStore(SessionStore store, StoreTarget target, AutoCloseable pool) implements AutoCloseable {

  @Override
  public void close() {
    try {
      store.close();
    } finally {
      if (pool != null) {
        try {
          pool.close();
        } catch (Exception e) {
          throw new IllegalStateException("cannot close the connection pool of " + target.describe(), e);
        }
      }
    }
  }
}
