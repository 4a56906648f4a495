package dev.sessionstore.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import dev.sessionstore.memory.InMemorySessionStore;
import java.sql.SQLException;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The stores the benchmarks compare: the {@code kind} parameter of every benchmark ({@code -p kind=POSTGRESQL}).
 * Each trial opens a store of its kind with {@link #open()} and closes it at the end of the trial, so trials never see
 * each other's data.
 */
public enum StoreKind {

  /** {@link InMemorySessionStore}: the floor: no I/O, no encoding. */
  IN_MEMORY {
    @Override
    public BenchmarkStore open() {
      return new BenchmarkStore(inMemory(), () -> { });
    }
  },

  /**
   * {@link JdbcSessionStore} on the PostgreSQL named by {@value #URL_VARIABLE} (default {@value #DEFAULT_URL})
   * through a HikariCP pool of {@value #POOL_SIZE} connections, in a schema of its own ({@value #SCHEMA_PREFIX} and
   * a random suffix) that closing drops. A schema left behind by a killed run carries that prefix.
   */
  POSTGRESQL {
    @Override
    public BenchmarkStore open() {
      HikariConfig config = new HikariConfig();
      config.setJdbcUrl(jdbcUrl());
      config.setMaximumPoolSize(POOL_SIZE);
      config.setPoolName("session-store-benchmark");
      HikariDataSource pool = new HikariDataSource(config);
      String schema = SCHEMA_PREFIX + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
      BenchmarkStore.Release release = () -> {
        try (pool; var connection = pool.getConnection(); var statement = connection.createStatement()) {
          statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
      };
      try {
        return new BenchmarkStore(postgres(pool, schema), release);
      } catch (RuntimeException e) {
        try {
          release.run();
        } catch (SQLException dropFailure) {
          e.addSuppressed(dropFailure);
        }
        throw e;
      }
    }
  };

  /** The environment variable naming the PostgreSQL database, as a JDBC URL. */
  public static final String URL_VARIABLE = "SESSION_STORE_BENCH_JDBC_URL";
  /** The database used when {@value #URL_VARIABLE} is unset: a local PostgreSQL with trust authentication. */
  public static final String DEFAULT_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
  /** Every schema a benchmark creates starts with this. */
  public static final String SCHEMA_PREFIX = "session_store_bench_";
  /** Enough for the widest benchmark (4 threads) plus the store's {@code LISTEN} connection. */
  static final int POOL_SIZE = 8;

  /** The prefix of the PostgreSQL store's tables, as {@link #postgres} builds it. */
  public static final String TABLE_PREFIX = "session_store_";

  /** Opens a fresh, empty store of this kind; closing the result releases everything it holds. */
  public abstract BenchmarkStore open();

  /**
   * A new, empty in-memory store. The one place the benchmarks build one, so that a change of its builder is a
   * change of this method.
   */
  public static SessionStore inMemory() {
    return InMemorySessionStore.builder().build();
  }

  /**
   * A PostgreSQL store on {@code dataSource} with its tables ({@value #TABLE_PREFIX}…) in {@code schema}, created if
   * missing. The one place the benchmarks build one, so that a change of its builder is a change of this method.
   */
  public static SessionStore postgres(DataSource dataSource, String schema) {
    return JdbcSessionStore.builder().dataSource(dataSource).schema(schema).tablePrefix(TABLE_PREFIX).build();
  }

  /** The JDBC URL the {@link #POSTGRESQL} store connects to. */
  public static String jdbcUrl() {
    String url = System.getenv(URL_VARIABLE);
    return url == null || url.isBlank() ? DEFAULT_URL : url;
  }
}
