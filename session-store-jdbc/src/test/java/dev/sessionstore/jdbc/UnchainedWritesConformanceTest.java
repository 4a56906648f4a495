package dev.sessionstore.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.internal.StoreSettings;
import dev.sessionstore.jdbc.internal.UnchainedWrites;
import dev.sessionstore.spi.ValidatingSessionStore;
import java.time.Clock;
import java.time.Duration;

/**
 * Certifies the portable paths of the JDBC store with the whole conformance kit: on PostgreSQL, but with a dialect
 * that does not chain writes, as a database without data-modifying {@code WITH} clauses would be. Appends take the
 * locked path; implicit sessions, cuts, locked appends and forks run statement by statement in one transaction.
 */
class UnchainedWritesConformanceTest extends PostgresConformanceTest {

  @Override
  SessionStore build(HikariDataSource dataSource, String schema, Clock clock) {
    return ValidatingSessionStore.wrap(UnchainedWrites.open(new StoreSettings(dataSource, schema, "session_store_", clock, true, true,
        Duration.ofMillis(200), Duration.ofSeconds(5), Duration.ofSeconds(10), true, dataSource, Duration.ofSeconds(10),
        Duration.ofMillis(50), Duration.ofMinutes(1), Duration.ofSeconds(5), Duration.ZERO, null, null)));
  }
}
