package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.Resolution;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.spi.RetryCause;
import dev.sessionstore.spi.SettledOutcome;
import dev.sessionstore.spi.StoreEventSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Calls whose result says what they changed, with the backend terminated while it waits in {@code COMMIT}, so that
 * the call's outcome is in doubt although the transaction committed (guarantee 17 of docs/guarantees.md). The test
 * owns its PostgreSQL (embedded binaries; the shared server's settings are never touched), started with
 * {@code synchronous_standby_names} naming a standby that does not exist and {@code synchronous_commit = local} by
 * default: the store under test sets {@code synchronous_commit = on} on the connections it borrows while the test
 * holds commits, so its commit waits on {@code SyncRep} after it was written locally, and is then terminated. Every
 * call must return what a clean run returns, and a waiter on another store instance, which polls once an hour, must
 * wake within a second.
 */
class SettledCommitTest {

  private static final String APPLICATION = "settled_commit_test";
  private static final Duration WAKE_BOUND = Duration.ofSeconds(1);

  private static EmbeddedPostgres postgres;
  private static int port;

  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final List<AutoCloseable> opened = new ArrayList<>();
  private final AtomicBoolean holdCommits = new AtomicBoolean();
  private String schema;
  private SessionStore store;
  private SessionStore other;

  @BeforeAll
  static void startPostgres() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    postgres = EmbeddedPostgres.builder().setPort(port)
        .setServerConfig("synchronous_standby_names", "no_such_standby")
        .setServerConfig("synchronous_commit", "local")
        .start();
  }

  @AfterAll
  static void stopPostgres() throws IOException {
    if (postgres != null) {
      postgres.close();
    }
  }

  @BeforeEach
  void openStores() {
    schema = TestDatabase.uniqueName("settled");
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url());
    config.setPoolName(APPLICATION);
    config.setMaximumPoolSize(4);
    config.addDataSourceProperty("ApplicationName", APPLICATION);
    HikariDataSource pool = new HikariDataSource(config);
    opened.add(pool);
    store = open(holdingCommits(pool), builder -> builder.schema(schema).modelCallAudit(true));
    HikariDataSource otherPool = new HikariDataSource(plainConfig());
    opened.add(otherPool);
    other = open(otherPool, builder -> builder.schema(schema).modelCallAudit(true)
        .waitPollInterval(Duration.ofHours(1)));
  }

  @AfterEach
  void closeStores() throws Exception {
    holdCommits.set(false);
    executor.shutdownNow();
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
  }

  @Test
  @DisplayName("A resolve whose commit was cut off after it was written comes back won, and a waiter on another"
      + " instance wakes within a second")
  void resolveIsWonAndAnnounced() throws Exception {
    store.toolCalls().save(ToolCallWrite.of("c-1", "s-1", "search"));
    CompletableFuture<Optional<ToolCall>> waiter = CompletableFuture.supplyAsync(
        () -> other.toolCalls().await("s-1", "c-1", Duration.ofSeconds(60)), executor);
    Thread.sleep(300); // the waiter is listening

    Resolution resolution = cutOffAtCommit(() -> store.toolCalls().resolve("s-1", "c-1", ToolCallStatus.COMPLETED,
        Json.of("{\"ok\":true}")));
    long returned = System.nanoTime();

    assertThat(resolution.won()).as("won: %s", resolution).isTrue();
    Optional<ToolCall> woken = waiter.get(WAKE_BOUND.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(Duration.ofNanos(System.nanoTime() - returned)).isLessThan(WAKE_BOUND);
    assertThat(woken).get().extracting(ToolCall::status).isEqualTo(ToolCallStatus.COMPLETED);
  }

  @Test
  @DisplayName("A resolve whose commit was cut off is reported settled once, as applied, after retries for the lost"
      + " connection only")
  void settledResolveIsReportedOnce() throws Exception {
    store.toolCalls().save(ToolCallWrite.of("c-1", "s-1", "search"));
    StoreEventsRecorder recorder = new StoreEventsRecorder();
    StoreEventSource.of(store).subscribe(recorder);

    Resolution resolution = cutOffAtCommit(() -> store.toolCalls().resolve("s-1", "c-1", ToolCallStatus.COMPLETED,
        Json.of("{\"ok\":true}")));

    assertThat(resolution.won()).as("won: %s", resolution).isTrue();
    assertThat(recorder.settled).containsExactly(SettledOutcome.APPLIED);
    assertThat(recorder.retries).isNotEmpty().containsOnly(RetryCause.CONNECTION);
  }

  @Test
  @DisplayName("A deadline cancel whose commit was cut off comes back true, and the deadline is gone")
  void cancelDeadlineIsTrue() throws Exception {
    store.toolCalls().save(ToolCallWrite.of("c-1", "s-1", "search")
        .withDeadline(java.time.Instant.now().plus(Duration.ofHours(1))));

    boolean cancelled = cutOffAtCommit(() -> store.toolCalls().cancelDeadline("s-1", "c-1"));

    assertThat(cancelled).isTrue();
    assertThat(other.toolCalls().find("s-1", "c-1")).get().extracting(ToolCall::deadline).isNull();
  }

  @Test
  @DisplayName("A session delete and a tenant delete whose commits were cut off say what they deleted")
  void deletesCountWhatTheyDeleted() throws Exception {
    store.events().append("s-1", NewEvent.of("step"));
    for (int i = 0; i < 3; i++) {
      store.sessions().save(SessionWrite.of("t-" + i).withTenant("acme"));
    }

    boolean deleted = cutOffAtCommit(() -> store.sessions().delete("s-1"));
    int deletedOfTenant = cutOffAtCommit(() -> store.sessions().deleteByTenant("acme"));

    assertThat(deleted).isTrue();
    assertThat(deletedOfTenant).isEqualTo(3);
    assertThat(other.sessions().find("s-1")).isEmpty();
    assertThat(other.sessions().find("t-0")).isEmpty();
  }

  @Test
  @DisplayName("A checkpoint delete, a model-call clean-up and a truncation whose commits were cut off say what"
      + " they removed")
  void removalsCountWhatTheyRemoved() throws Exception {
    CheckpointKey key = CheckpointKey.global("cp");
    store.checkpoints().put(key, new byte[] {1, 2});
    store.events().appendAll("s-1", List.of(NewEvent.of("a"), NewEvent.of("b"), NewEvent.of("c")));
    for (int i = 0; i < 4; i++) {
      store.modelCalls().record("s-1", NewModelCall.of(i, "model", Json.of("{}")));
    }
    Thread.sleep(5); // older than now by the time they are removed

    boolean checkpointDeleted = cutOffAtCommit(() -> store.checkpoints().delete(key));
    int modelCallsRemoved = cutOffAtCommit(() -> store.modelCalls().deleteOlderThan("s-1", Duration.ZERO));
    int truncated = cutOffAtCommit(() -> store.events().truncate("s-1", 2));

    assertThat(checkpointDeleted).isTrue();
    assertThat(modelCallsRemoved).isEqualTo(4);
    assertThat(truncated).isEqualTo(2);
    assertThat(other.events().lastSeq("s-1")).isEqualTo(1);
  }

  /**
   * Runs {@code call} on the store under test while commits are held, terminates every backend of the store that
   * waits on {@code SyncRep} until the call returns (at least one), and returns what the call returned.
   */
  private <T> T cutOffAtCommit(Supplier<T> call) throws Exception {
    holdCommits.set(true);
    CompletableFuture<T> result = CompletableFuture.supplyAsync(call, executor);
    int terminated = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    try (Connection admin = DriverManager.getConnection(url());
         PreparedStatement terminate = admin.prepareStatement("SELECT count(pg_terminate_backend(pid))"
             + " FROM pg_stat_activity WHERE application_name = ? AND wait_event = 'SyncRep'")) {
      terminate.setString(1, APPLICATION);
      while (!result.isDone() && System.nanoTime() < deadline) {
        try (ResultSet rows = terminate.executeQuery()) {
          rows.next();
          int now = rows.getInt(1);
          terminated += now;
          if (now > 0) {
            holdCommits.set(false); // the store's own settling, and anything after, commits at once
          }
        }
        Thread.sleep(5);
      }
    } finally {
      holdCommits.set(false);
    }
    assertThat(terminated).as("backends terminated while waiting in COMMIT").isGreaterThan(0);
    return result.get(20, TimeUnit.SECONDS);
  }

  private SessionStore open(DataSource dataSource,
      java.util.function.UnaryOperator<JdbcSessionStore.Builder> configure) {
    JdbcSessionStore opened = configure.apply(JdbcSessionStore.builder().dataSource(dataSource)
        .deadlineSweepInterval(Duration.ofHours(1)).retryTimeout(Duration.ofSeconds(15))).build();
    this.opened.add(opened);
    return opened;
  }

  /** {@code pool}, whose connections wait for the missing standby at commit while the test holds commits. */
  private DataSource holdingCommits(HikariDataSource pool) {
    return (DataSource) Proxy.newProxyInstance(SettledCommitTest.class.getClassLoader(),
        new Class<?>[] {DataSource.class}, (proxy, method, arguments) -> {
          try {
            Object result = method.invoke(pool, arguments);
            if (result instanceof Connection connection) {
              try (Statement statement = connection.createStatement()) {
                statement.execute("SET synchronous_commit = " + (holdCommits.get() ? "on" : "local"));
              }
            }
            return result;
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  private static HikariConfig plainConfig() {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url());
    config.setMaximumPoolSize(4);
    return config;
  }

  private static String url() {
    return "jdbc:postgresql://localhost:" + port + "/postgres?user=postgres";
  }
}
