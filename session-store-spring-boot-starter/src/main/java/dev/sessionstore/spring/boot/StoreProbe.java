package dev.sessionstore.spring.boot;

import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;

/**
 * The check behind the health indicator of either Spring Boot line (each line has its own indicator class, as Boot 4
 * moved the health API to other packages): a one-session listing, which touches the store's tables.
 */
final class StoreProbe {

  private StoreProbe() {
  }

  /** Null when {@code store} answered the listing, else what it threw. */
  static RuntimeException failure(SessionStore store) {
    try {
      store.sessions().list(SessionQuery.all().limit(1));
      return null;
    } catch (RuntimeException e) {
      return e;
    }
  }
}
