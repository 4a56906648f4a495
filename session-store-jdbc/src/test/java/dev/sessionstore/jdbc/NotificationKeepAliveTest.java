package dev.sessionstore.jdbc;

import static dev.sessionstore.jdbc.CrossProcessWakeupTest.assertWakesOn;
import static dev.sessionstore.jdbc.CrossProcessWakeupTest.awaitParked;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Event;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.internal.StoreInternals;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The LISTEN connection is kept alive and replaced when lost, however it is lost; losing it and getting it back are
 * logged once each; notification can be off, on a data source of its own, or impossible through a wrapper, and
 * waiting reads then poll. Waiting stores poll only every 10 minutes, so a read that returns early was woken.
 */
class NotificationKeepAliveTest {

  private static final Duration NEVER_POLLS = Duration.ofMinutes(10);
  private static final Duration WAIT = Duration.ofSeconds(30);

  private final TestSchema schema = new TestSchema();
  private final CapturedLog log = new CapturedLog();
  private FreezingProxy proxy;

  @AfterEach
  void close() throws Exception {
    log.close();
    schema.close();
    if (proxy != null) {
      proxy.close();
    }
  }

  private String channel() {
    return "session_store." + schema.name() + ".session_store_events";
  }

  @Test
  @DisplayName("A LISTEN backend terminated while reconnecting fails for a while: one warning, one recovery, wake-ups"
      + " resume")
  void terminatedListenerFallsBackOnceAndRecovers() throws Exception {
    String applicationName = TestDatabase.uniqueName("listener");
    PGSimpleDataSource listening = TestDatabase.get().adminDataSource();
    listening.setApplicationName(applicationName);
    AtomicBoolean refusing = new AtomicBoolean();
    AtomicInteger refused = new AtomicInteger();
    SessionStore waiting = schema.store(builder -> builder.waitPollInterval(NEVER_POLLS)
        .notificationDataSource(refusingWhile(listening, refusing, refused)));
    SessionStore writing = schema.store(builder -> builder);
    assertThat(StoreInternals.isListening(waiting)).isTrue();

    refusing.set(true);
    Object killed = schema.queryValue("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
        + " WHERE application_name = ? AND query LIKE ?", applicationName, "%LISTEN \"" + channel() + "\"%");
    assertThat(((Number) killed).intValue()).as("LISTEN connections of the notification data source terminated")
        .isEqualTo(1);
    Eventually.until("three reconnects refused", () -> refused.get() >= 3);
    assertThat(StoreInternals.isListening(waiting)).isFalse();
    refusing.set(false);
    Eventually.until("the listener listening again", () -> StoreInternals.isListening(waiting));

    assertThat(log.lines("not listening for appends on " + channel())).as("warnings of the fallback").hasSize(1);
    assertThat(log.lines("not listening for appends on " + channel()).get(0)).as("the reason, on the same line")
        .contains("Exception: ");
    assertThat(log.stackTraceAfter("not listening for appends on " + channel())).as("a stack trace at warn")
        .isFalse();
    assertThat(log.lines("listening again on " + channel())).as("recoveries logged").hasSize(1);
    assertWakesOn(waiting, writing, "after-recovery");
  }

  @Test
  @DisplayName("A half-open LISTEN connection (the peer stops answering, nothing is closed) is found by the"
      + " keep-alive and replaced; wake-ups resume")
  void halfOpenListenerIsDetectedAndReplaced() throws Exception {
    PGSimpleDataSource direct = TestDatabase.get().adminDataSource();
    int[] ports = direct.getPortNumbers();
    proxy = new FreezingProxy(direct.getServerNames()[0], ports.length == 0 || ports[0] == 0 ? 5432 : ports[0]);
    PGSimpleDataSource proxied = TestDatabase.get().adminDataSource();
    proxied.setServerNames(new String[] {"127.0.0.1"});
    proxied.setPortNumbers(new int[] {proxy.port()});
    SessionStore waiting = schema.store(builder -> builder.waitPollInterval(NEVER_POLLS)
        .notificationDataSource(proxied).keepAliveInterval(Duration.ofSeconds(1)));
    SessionStore writing = schema.store(builder -> builder);
    assertThat(StoreInternals.isListening(waiting)).isTrue();

    proxy.freeze();

    Eventually.until("the fallback to polling logged", () -> !log.lines("not listening for appends on "
        + channel()).isEmpty());
    Eventually.until("the recovery logged", () -> !log.lines("listening again on " + channel()).isEmpty());
    assertThat(log.lines("not listening for appends on " + channel())).as("warnings of the fallback").hasSize(1);
    assertWakesOn(waiting, writing, "after-half-open");
  }

  @Test
  @DisplayName("With notifications off the store holds no LISTEN connection; its own appends wake its own reads, and"
      + " other instances find them by polling")
  void notificationsOff() throws Exception {
    SessionStore quiet = schema.store(builder -> builder.waitPollInterval(NEVER_POLLS).notifications(false));
    SessionStore polling = schema.store(builder -> builder.waitPollInterval(Duration.ofMillis(200)));
    assertThat(StoreInternals.hasListener(quiet)).isFalse();
    assertThat(schema.queryValue("SELECT count(*) FROM pg_stat_activity WHERE query LIKE ?",
        "%LISTEN \"" + channel() + "\"%")).as("LISTEN connections: the polling store's only").isEqualTo(1L);

    CompletableFuture<EventPage> own = CompletableFuture.supplyAsync(
        () -> quiet.events().await("s", EventQuery.all(), WAIT));
    CompletableFuture<EventPage> other = CompletableFuture.supplyAsync(
        () -> polling.events().await("s", EventQuery.all(), WAIT));
    awaitParked(quiet, "s");
    awaitParked(polling, "s");
    Event appended = quiet.events().append("s", NewEvent.of("message"));

    assertThat(own.get(WAIT.toSeconds() + 10, TimeUnit.SECONDS).items()).containsExactly(appended);
    assertThat(other.get(WAIT.toSeconds() + 10, TimeUnit.SECONDS).items()).containsExactly(appended);
  }

  @Test
  @DisplayName("Through a data source whose connections hide pgjdbc, build() succeeds with a warning, the store's"
      + " reads poll, and its appends still wake other instances")
  void wrapperWithoutPgjdbcPolls() throws Exception {
    SessionStore wrapped = schema.store(hidingDriver(schema.pool(5)),
        builder -> builder.waitPollInterval(Duration.ofMillis(200)));
    SessionStore listening = schema.store(builder -> builder.waitPollInterval(NEVER_POLLS));

    assertThat(StoreInternals.hasListener(wrapped)).isFalse();
    assertThat(log.lines("cannot LISTEN for appends on " + channel())).hasSize(1);
    assertWakesOn(listening, wrapped, "announced-by-the-wrapped-store");
    assertWakesOn(wrapped, listening, "polled-by-the-wrapped-store");
  }

  /** {@code dataSource}, failing to connect as a pool that cannot reach the database does, while {@code refusing}. */
  private static DataSource refusingWhile(DataSource dataSource, AtomicBoolean refusing, AtomicInteger refused) {
    return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
        (proxy, method, arguments) -> {
          if (method.getName().equals("getConnection") && refusing.get()) {
            refused.incrementAndGet();
            throw new SQLTransientConnectionException("refused by the test", "08001");
          }
          return invoke(method, dataSource, arguments);
        });
  }

  /** {@code dataSource} with connections behind a proxy that neither is nor unwraps to pgjdbc's connection. */
  private static DataSource hidingDriver(DataSource dataSource) {
    return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
        (proxy, method, arguments) -> {
          if (!method.getName().equals("getConnection")) {
            return invoke(method, dataSource, arguments);
          }
          Connection connection = (Connection) invoke(method, dataSource, arguments);
          return Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
              (connectionProxy, connectionMethod, connectionArguments) -> switch (connectionMethod.getName()) {
                case "isWrapperFor" -> false;
                case "unwrap" -> throw new SQLException("not a wrapper");
                default -> invoke(connectionMethod, connection, connectionArguments);
              });
        });
  }

  private static Object invoke(java.lang.reflect.Method method, Object target, Object[] arguments) throws Throwable {
    try {
      return method.invoke(target, arguments);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
