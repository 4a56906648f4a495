package dev.sessionstore.reliability;

import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import javax.sql.DataSource;

/** Opens the stores under test: the one place that knows how a store is built. */
final class Stores {

  private Stores() {
  }

  /**
   * A store on {@code dataSource} (connecting to {@code jdbcUrl}) keeping its tables apart under {@code namespace}:
   * in that schema (created if missing) on PostgreSQL; with the table prefix {@code <namespace>_} in the database
   * file on SQLite, which has no schemas.
   */
  static SessionStore open(DataSource dataSource, String jdbcUrl, String namespace, StoreTuning tuning) {
    JdbcSessionStore.Builder builder = JdbcSessionStore.builder()
        .dataSource(dataSource)
        .retryTimeout(tuning.retryTimeout())
        .waitPollInterval(tuning.waitPollInterval())
        .deadlineSweepInterval(tuning.deadlineSweepInterval());
    if (jdbcUrl.startsWith("jdbc:sqlite:")) {
      builder.tablePrefix(namespace + "_");
    } else {
      builder.schema(namespace);
    }
    return builder.build();
  }
}
