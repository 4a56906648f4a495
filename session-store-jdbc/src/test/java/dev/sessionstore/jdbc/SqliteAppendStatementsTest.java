package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.Event;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An append to a SQLite session the store knows runs five statements, one more than the plainest atomic append (begin
 * taking the write lock, move the head, insert, index the events in the search table, commit), and a batch of 100 the
 * same five with the insert run once per event as one JDBC batch and the index written by one statement for the
 * whole batch; the driver's transaction control (its own {@code begin}, {@code commit} and return to
 * auto-commit, which took six more) is not used. Replays, reused ids and conflicts still find the locked path, and
 * store nothing twice. Counts the statements the store's connections, from a pool as in production (a plain data
 * source opens a connection per borrow, which the store sets up first), execute on the calling thread.
 */
class SqliteAppendStatementsTest {

  @TempDir
  Path folder;

  private final List<String> executed = new ArrayList<>();
  private HikariDataSource pool;
  private SessionStore store;

  @BeforeEach
  void open() {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl("jdbc:sqlite:" + folder.resolve("statements.db"));
    config.setMaximumPoolSize(2);
    pool = new HikariDataSource(config);
    store = JdbcSessionStore.builder().dataSource(WatchedDataSource.wrap(pool, (connection, sql, values, prepared) -> {
          if (Thread.currentThread().getName().equals("main")) {
            synchronized (executed) {
              executed.add(sql.trim().split("\\s+")[0].toUpperCase() + (sql.contains("BEGIN IMMEDIATE")
                  ? " IMMEDIATE" : "") + (sql.contains("session_store_search ") ? " SEARCH" : ""));
            }
          }
        })).build();
    store.events().appendAll("s", events("fill", 1_000));
    store.events().append("s", NewEvent.of("message").withId("warm")); // each pooled connection set up once
    store.events().append("s", NewEvent.of("message").withId("warm-again"));
  }

  @AfterEach
  void close() {
    store.close();
    pool.close();
  }

  @Test
  @DisplayName("one event: BEGIN IMMEDIATE, UPDATE ... RETURNING, INSERT, INSERT INTO search, COMMIT")
  void oneEvent() {
    executed.clear();
    Event stored = store.events().append("s", NewEvent.of("message").withId("one"));
    assertThat(stored.seq()).isEqualTo(1_003);
    assertThat(executed).containsExactly("BEGIN IMMEDIATE", "UPDATE", "INSERT", "INSERT SEARCH", "COMMIT");
  }

  @Test
  @DisplayName("100 events: the same five, the insert once per event in one batch, the search insert once")
  void hundredEvents() {
    executed.clear();
    List<Event> stored = store.events().appendAll("s", events("batch", 100));
    assertThat(stored.get(99).seq()).isEqualTo(1_102);
    assertThat(executed).hasSize(104);
    assertThat(executed.subList(0, 2)).containsExactly("BEGIN IMMEDIATE", "UPDATE");
    assertThat(executed.subList(2, 102)).containsOnly("INSERT");
    assertThat(executed.subList(102, 104)).containsExactly("INSERT SEARCH", "COMMIT");
  }

  @Test
  @DisplayName("a replay rolls the short transaction back and is answered by the locked path, storing nothing")
  void replay() {
    Event first = store.events().append("s", NewEvent.of("message").withId("again"));
    executed.clear();
    Event replayed = store.events().append("s", NewEvent.of("message").withId("again"));
    assertThat(replayed).isEqualTo(first);
    assertThat(executed).startsWith("BEGIN IMMEDIATE", "UPDATE", "INSERT", "ROLLBACK");
    assertThat(store.events().lastSeq("s")).isEqualTo(1_003);
  }

  private static List<NewEvent> events(String prefix, int count) {
    List<NewEvent> events = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      events.add(NewEvent.of("message", Json.of("{\"text\":\"turn " + i + "\"}")).withId(prefix + "-" + i));
    }
    return events;
  }
}
