package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.Event;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Waiting reads across a restart of a PostgreSQL this class owns (embedded binaries on a port and data directory of
 * its own, stopped and started again on the same directory), so the shared test database is never restarted
 * (guarantees 8 and 17 of docs/guarantees.md). Stores poll only once an hour: a read that returns early was woken by a
 * notification.
 */
class RestartTest {

  private static final String SCHEMA = "restart_test";
  private static final Duration OBSERVE = Duration.ofSeconds(20);

  private static Path dataDirectory;
  private static int port;
  private static EmbeddedPostgres postgres;

  private final List<AutoCloseable> opened = new ArrayList<>();
  private final ExecutorService executor = Executors.newCachedThreadPool();

  @BeforeAll
  static void startPostgres() throws IOException {
    dataDirectory = Files.createTempDirectory("session-store-restart-");
    Files.delete(dataDirectory); // initdb creates it
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    postgres = start();
  }

  @AfterAll
  static void stopPostgres() throws IOException {
    if (postgres != null) {
      postgres.close();
    }
    if (dataDirectory != null && Files.exists(dataDirectory)) {
      try (var paths = Files.walk(dataDirectory)) {
        paths.sorted((a, b) -> b.compareTo(a)).forEach(path -> path.toFile().delete());
      }
    }
  }

  @AfterEach
  void closeStores() throws Exception {
    executor.shutdownNow();
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
  }

  @Test
  @DisplayName("A waiting read keeps waiting through a database restart and returns at its timeout without throwing")
  void waitOutlivesRestart() throws Exception {
    SessionStore store = store();
    store.events().append("s-wait", NewEvent.of("first"));
    Duration timeout = Duration.ofSeconds(6);
    AtomicReference<Thread> reader = new AtomicReference<>();
    long started = System.nanoTime();
    CompletableFuture<EventPage> read = CompletableFuture.supplyAsync(() -> {
      reader.set(Thread.currentThread());
      return store.events().await("s-wait", EventQuery.all().after(1), timeout);
    }, executor);
    awaitParked(reader);

    restart();
    long restarted = System.nanoTime();

    EventPage page = read.get(30, TimeUnit.SECONDS);
    long elapsed = System.nanoTime() - started;
    System.out.printf("RestartTest: database restarted %d ms into a %d ms wait; the wait returned after %d ms%n",
        TimeUnit.NANOSECONDS.toMillis(restarted - started), timeout.toMillis(), TimeUnit.NANOSECONDS.toMillis(elapsed));
    assertThat(restarted - started).as("the restart ended within the wait").isLessThan(timeout.toNanos());
    assertThat(page.isEmpty()).isTrue();
    assertThat(elapsed).as("returned at its timeout, not before").isGreaterThanOrEqualTo(timeout.toNanos());
    assertThat(store.events().lastSeq("s-wait")).isEqualTo(1);
  }

  @Test
  @DisplayName("After a restart, a waiting read is woken by another instance's append, not by a poll")
  void wakeUpsResumeAfterRestart() throws Exception {
    SessionStore reading = store();
    SessionStore writing = store();
    writing.events().append("s-wake", NewEvent.of("first"));

    restart();
    awaitListening(2);

    AtomicReference<Thread> reader = new AtomicReference<>();
    long started = System.nanoTime();
    CompletableFuture<EventPage> read = CompletableFuture.supplyAsync(() -> {
      reader.set(Thread.currentThread());
      return reading.events().await("s-wake", EventQuery.all().after(1), OBSERVE);
    }, executor);
    awaitParked(reader);
    Event appended = writing.events().append("s-wake", NewEvent.of("second"));

    EventPage page = read.get(30, TimeUnit.SECONDS);
    long elapsed = System.nanoTime() - started;
    System.out.printf("RestartTest: after the restart, a waiting read was woken %d ms after it started%n",
        TimeUnit.NANOSECONDS.toMillis(elapsed));
    assertThat(page.items()).containsExactly(appended);
    assertThat(elapsed).as("woken, not timed out").isLessThan(OBSERVE.toNanos());
  }

  private static EmbeddedPostgres start() throws IOException {
    return EmbeddedPostgres.builder().setDataDirectory(dataDirectory).setCleanDataDirectory(false).setPort(port)
        .start();
  }

  /** Stops the database (fast shutdown: every backend terminated) and starts it again on the same directory. */
  private static void restart() throws IOException {
    postgres.close();
    postgres = start();
  }

  private SessionStore store() {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url());
    config.setMaximumPoolSize(4);
    config.setMinimumIdle(0);
    config.setConnectionTimeout(1_000);
    HikariDataSource pool = new HikariDataSource(config);
    opened.add(pool);
    SessionStore store = JdbcSessionStore.builder().dataSource(pool).schema(SCHEMA)
        .waitPollInterval(Duration.ofHours(1)).build();
    opened.add(store);
    return store;
  }

  private static String url() {
    return "jdbc:postgresql://localhost:" + port + "/postgres?user=postgres";
  }

  /** Waits until the reading thread is parked in its waiting read (not reading, not retrying). */
  private static void awaitParked(AtomicReference<Thread> reader) throws InterruptedException {
    long deadline = System.nanoTime() + OBSERVE.toNanos();
    while (System.nanoTime() < deadline) {
      Thread thread = reader.get();
      if (thread != null && thread.getState() == Thread.State.TIMED_WAITING && Arrays.stream(thread.getStackTrace())
          .anyMatch(frame -> frame.getClassName().endsWith("SessionWaiters$Signal")
              && frame.getMethodName().equals("awaitAfter"))) {
        return;
      }
      Thread.sleep(5);
    }
    throw new AssertionError("the waiting read never parked");
  }

  /** Waits until {@code listeners} connections of the restarted database are listening for appends. */
  private static void awaitListening(int listeners) throws InterruptedException, SQLException {
    long deadline = System.nanoTime() + OBSERVE.toNanos();
    while (System.nanoTime() < deadline) {
      try (Connection connection = DriverManager.getConnection(url());
           PreparedStatement statement = connection.prepareStatement(
               "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'LISTEN %'");
           ResultSet rows = statement.executeQuery()) {
        rows.next();
        if (rows.getInt(1) >= listeners) {
          return;
        }
      }
      Thread.sleep(5);
    }
    throw new AssertionError("the stores' listeners did not listen again");
  }
}
