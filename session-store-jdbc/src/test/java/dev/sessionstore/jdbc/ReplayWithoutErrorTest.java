package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.sessionstore.Event;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Idempotent replays are answered without a database error: PostgreSQL logs every error with its statement, so a
 * replay that failed a statement on the events' unique key would flood the server log and pay for a rollback. The
 * data source is observed: every SQLException its connections and statements throw is recorded.
 */
class ReplayWithoutErrorTest {

  private final TestSchema schema = new TestSchema();
  /** The SQLSTATE of every error the database raised to the store. */
  private final Queue<String> errors = new ConcurrentLinkedQueue<>();
  private SessionStore store;

  @BeforeEach
  void openStore() {
    store = schema.store(observed(schema.pool(4)), builder -> builder);
  }

  @AfterEach
  void dropSchema() {
    schema.close();
  }

  @Test
  @DisplayName("Replaying a stored batch returns the stored events without a unique violation")
  void replayOfStoredBatch() {
    List<NewEvent> batch = List.of(event("a"), event("b"));
    List<Event> first = store.events().appendAll("s", batch);

    List<Event> replayed = store.events().appendAll("s", batch);
    Event single = store.events().append("s", event("b"));

    assertThat(replayed).extracting(Event::id, Event::seq).containsExactly(tuple("a", 1L), tuple("b", 2L));
    assertThat(single.seq()).isEqualTo(2);
    assertThat(store.events().lastSeq("s")).isEqualTo(2);
    assertThat(errors).isEmpty();
  }

  @Test
  @DisplayName("A batch of stored and fresh events appends the fresh ones without a unique violation")
  void mixedBatch() {
    store.events().appendAll("s", List.of(event("a"), event("b")));

    List<Event> mixed = store.events().appendAll("s", List.of(event("b"), event("c"), event("a")), 2);

    assertThat(mixed).extracting(Event::id, Event::seq)
        .containsExactly(tuple("b", 2L), tuple("c", 3L), tuple("a", 1L));
    assertThat(store.events().lastSeq("s")).isEqualTo(3);
    assertThat(errors).isEmpty();
  }

  @Test
  @DisplayName("An id committed while the append waits for the session row's lock is replayed, without an error or a gap")
  void idCommittedWhileWaiting() throws Exception {
    List<Event> appended = appendWhileLocked(List.of(event("x"), event("y")));

    assertThat(appended).extracting(Event::id, Event::seq).containsExactly(tuple("x", 2L), tuple("y", 3L));
    assertThat(store.events().lastSeq("s")).isEqualTo(3);
    assertThat(storedIds()).isEqualTo("a,x,y");
    assertThat(errors).isEmpty();
  }

  @Test
  @DisplayName("A single event committed while its append waits for the session row's lock is replayed, without an error")
  void singleEventCommittedWhileWaiting() throws Exception {
    List<Event> appended = appendWhileLocked(List.of(event("x")));

    assertThat(appended).extracting(Event::id, Event::seq).containsExactly(tuple("x", 2L));
    assertThat(store.events().lastSeq("s")).isEqualTo(2);
    assertThat(storedIds()).isEqualTo("a,x");
    assertThat(errors).isEmpty();
  }

  /**
   * Appends {@code batch}, whose first event is {@code x}, to session {@code s} (holding {@code a}) while another
   * transaction holds the session row's lock, and commits {@code x} at seq 2 there once the append waits for it.
   */
  private List<Event> appendWhileLocked(List<NewEvent> batch) throws Exception {
    store.events().append("s", event("a"));
    ExecutorService executor = Executors.newSingleThreadExecutor();
    try (Connection holder = TestDatabase.get().adminDataSource().getConnection();
         Statement statement = holder.createStatement()) {
      holder.setAutoCommit(false);
      statement.execute("SELECT last_seq FROM " + sessions() + " WHERE id = 's' FOR NO KEY UPDATE");
      statement.execute("INSERT INTO " + events() + " (session_id, seq, id, type, payload, ts)"
          + " VALUES ('s', 2, 'x', 'note', '{\"id\":\"x\"}', now())");
      statement.execute("UPDATE " + sessions() + " SET last_seq = 2 WHERE id = 's'");

      Future<List<Event>> appended = executor.submit(() -> store.events().appendAll("s", batch));
      awaitLockWait();
      holder.commit();
      return appended.get(10, TimeUnit.SECONDS);
    } finally {
      executor.shutdownNow();
    }
  }

  private String storedIds() {
    return (String) schema.queryValue("SELECT string_agg(id, ',' ORDER BY seq) FROM " + events());
  }

  private String events() {
    return "\"" + schema.name() + "\".session_store_events";
  }

  private String sessions() {
    return "\"" + schema.name() + "\".session_store_sessions";
  }

  /** Waits until a statement of the store waits for a lock, as the append does behind the holder of the session row's lock. */
  private void awaitLockWait() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!Boolean.TRUE.equals(schema.queryValue("SELECT EXISTS (SELECT FROM pg_stat_activity"
        + " WHERE wait_event_type = 'Lock' AND query LIKE '%session_store_%' AND query LIKE ?)",
        "%\"" + schema.name() + "\"%"))) {
      assertThat(System.nanoTime()).as("the append waits for the session row's lock").isLessThan(deadline);
      Thread.sleep(10);
    }
  }

  private static NewEvent event(String id) {
    return NewEvent.of("note", Json.of("{\"id\":\"" + id + "\"}")).withId(id);
  }

  /** {@code dataSource}, recording the SQLSTATE of every error its connections and statements throw. */
  private DataSource observed(DataSource dataSource) {
    return observing(DataSource.class, dataSource);
  }

  private <T> T observing(Class<T> type, T target) {
    InvocationHandler handler = (proxy, method, arguments) -> {
      Object result;
      try {
        result = method.invoke(target, arguments);
      } catch (InvocationTargetException e) {
        if (e.getCause() instanceof SQLException error) {
          errors.add(String.valueOf(error.getSQLState()));
        }
        throw e.getCause();
      }
      if (result instanceof Connection connection && method.getReturnType() == Connection.class) {
        return observing(Connection.class, connection);
      }
      if (result instanceof Statement statement && Statement.class.isAssignableFrom(method.getReturnType())) {
        return observingStatement(method.getReturnType(), statement);
      }
      return result;
    };
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
  }

  @SuppressWarnings("unchecked")
  private Object observingStatement(Class<?> type, Statement statement) {
    return observing((Class<Object>) type, statement);
  }
}
