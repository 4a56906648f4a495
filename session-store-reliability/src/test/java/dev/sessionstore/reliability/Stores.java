package dev.sessionstore.reliability;

import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import javax.sql.DataSource;

/** Opens the stores under test: the one place that knows how a store is built. */
final class Stores {

  private Stores() {
  }

  /** A store on {@code dataSource} keeping its tables in {@code schema} (created if missing). */
  static SessionStore open(DataSource dataSource, String schema, StoreTuning tuning) {
    return JdbcSessionStore.builder()
        .dataSource(dataSource)
        .schema(schema)
        .retryTimeout(tuning.retryTimeout())
        .waitPollInterval(tuning.waitPollInterval())
        .deadlineSweepInterval(tuning.deadlineSweepInterval())
        .build();
  }
}
