package dev.sessionstore.jdbc;

import dev.sessionstore.EventQuery;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.jdbc.internal.DriverLibrary;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;
import org.sqlite.SQLiteDataSource;

/**
 * What a user's application does with session-store-jdbc, run by {@link DriverChoiceTest} inside a class loader that
 * holds only some of the drivers and the pool, as a user's class path would. Every scenario takes and returns plain
 * strings, the only types the two class loaders share: what the store answered, or the message of its refusal.
 */
public final class DriverScenarios {

  private DriverScenarios() {
  }

  /** Builds a store on {@code jdbcUrl} and runs the round trip; else the message of the builder's refusal. */
  public static String roundTripOnUrl(String jdbcUrl) {
    try (SessionStore store = JdbcSessionStore.builder().jdbcUrl(jdbcUrl).schema("driver_choice").build()) {
      return roundTrip(store);
    } catch (InvalidArgumentException refused) {
      return "refused " + refused.field() + ": " + refused.getMessage();
    }
  }

  /** A store on pgjdbc's own unpooled data source: no pool, no SQLite driver needed. */
  public static String roundTripOnPostgresDataSource(String jdbcUrl) {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setUrl(jdbcUrl);
    return roundTripOn(dataSource, "driver_choice");
  }

  /** A store on sqlite-jdbc's own data source over {@code file}: no pool, no PostgreSQL driver needed. */
  public static String roundTripOnSqliteDataSource(String file) {
    SQLiteDataSource dataSource = new SQLiteDataSource();
    dataSource.setUrl("jdbc:sqlite:" + file);
    return roundTripOn(dataSource, null);
  }

  /** What the version check of {@code library} (a {@link DriverLibrary} name) says: its warning, or "accepted". */
  public static String versionCheck(String library) {
    DriverLibrary driver = DriverLibrary.valueOf(library);
    return driver.version().orElse("unknown") + " " + driver.checkVersion("dataSource").orElse("accepted");
  }

  private static String roundTripOn(DataSource dataSource, String schema) {
    JdbcSessionStore.Builder builder = JdbcSessionStore.builder().dataSource(dataSource);
    if (schema != null) {
      builder.schema(schema);
    }
    try (SessionStore store = builder.build()) {
      return roundTrip(store);
    } catch (InvalidArgumentException refused) {
      return "refused " + refused.field() + ": " + refused.getMessage();
    }
  }

  private static String roundTrip(SessionStore store) {
    String sessionId = "driver-choice-" + UUID.randomUUID();
    store.sessions().save(SessionWrite.of(sessionId));
    store.events().append(sessionId, NewEvent.of("user_message", Json.from(Map.of("text", "hello"))).withId("m-1"));
    return "read back " + store.events().read(sessionId, EventQuery.all()).items().get(0).payload().as(Map.class)
        .get("text");
  }
}
