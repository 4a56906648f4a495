package dev.sessionstore.jdbc;

import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/**
 * Certifies the SQLite store with the whole conformance kit, every capability declared: each store the kit asks for
 * gets a database file of its own in a temporary folder, through a plain {@link SQLiteDataSource} (a new connection
 * per call, no pool), so nothing but the store sets the connections up.
 *
 * <p>A peer the kit asks for ({@link #newPeerStore}) is a second store on the first's file through a data source of
 * its own, as another process would open it: its own connections, change listener, sweeper and waiters.
 */
class SqliteConformanceTest extends SessionStoreConformance {

  private static final AtomicLong FILES = new AtomicLong();

  @TempDir
  static Path folder;

  @Override
  protected SessionStore newStore(Clock clock) {
    return build(dataSource(folder.resolve("kit-" + FILES.incrementAndGet() + ".db")), clock);
  }

  @Override
  protected SessionStore newPeerStore(SessionStore first, Clock clock) {
    String description = first.toString();
    int start = description.indexOf("jdbc:sqlite:");
    if (start < 0) {
      throw new IllegalArgumentException("not a SQLite store of this test: " + first);
    }
    String url = description.substring(start, description.indexOf(',', start));
    SQLiteDataSource dataSource = new SQLiteDataSource();
    dataSource.setUrl(url);
    return build(dataSource, clock);
  }

  @Override
  protected SessionStore newRetainingStore(Clock clock, RetentionPolicy policy, Duration interval) {
    return JdbcSessionStore.builder()
        .dataSource(dataSource(folder.resolve("kit-" + FILES.incrementAndGet() + ".db")))
        .clock(clock)
        .modelCallAudit(true)
        .retention(policy, interval)
        .build();
  }

  static SQLiteDataSource dataSource(Path file) {
    SQLiteDataSource dataSource = new SQLiteDataSource();
    dataSource.setUrl("jdbc:sqlite:" + file);
    return dataSource;
  }

  /** A store as the kit needs it (audit on, frequent sweeps). */
  static SessionStore build(SQLiteDataSource dataSource, Clock clock) {
    return JdbcSessionStore.builder()
        .dataSource(dataSource)
        .clock(clock)
        .modelCallAudit(true)
        .deadlineSweepInterval(Duration.ofMillis(200))
        .build();
  }
}
