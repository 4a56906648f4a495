package dev.sessionstore.reliability;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.SessionStore;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The pools and stores one test opened on one schema of a {@link Database}, each store with a pool of its own as
 * another process would have; closing closes them all, stores before their pools.
 */
final class OpenStores implements AutoCloseable {

  private final Database database;
  private final String schema;
  private final List<AutoCloseable> opened = new ArrayList<>();

  OpenStores(Database database, String schema) {
    this.database = database;
    this.schema = schema;
  }

  String schema() {
    return schema;
  }

  /** A pool of {@code size} connections, waiting at most 1 s for one, configured further by {@code configure}. */
  synchronized HikariDataSource pool(String name, int size, Consumer<HikariConfig> configure) {
    HikariConfig config = database.poolConfig(name);
    config.setMaximumPoolSize(size);
    config.setConnectionTimeout(1_000);
    configure.accept(config);
    HikariDataSource pool = new HikariDataSource(config);
    opened.add(pool);
    return pool;
  }

  /** A store on a new pool of {@code poolSize} connections. */
  SessionStore store(String name, int poolSize, StoreTuning tuning) {
    return store(pool(name, poolSize, config -> { }), tuning);
  }

  /** A store on {@code pool}. */
  synchronized SessionStore store(javax.sql.DataSource pool, StoreTuning tuning) {
    SessionStore store = Stores.open(pool, database.jdbcUrl(), schema, tuning);
    opened.add(store);
    return store;
  }

  @Override
  public synchronized void close() throws Exception {
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
    opened.clear();
  }
}
