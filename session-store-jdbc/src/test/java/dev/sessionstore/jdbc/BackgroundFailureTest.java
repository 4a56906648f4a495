package dev.sessionstore.jdbc;

import static dev.sessionstore.jdbc.CrossProcessWakeupTest.assertWakesOn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.jdbc.internal.StoreInternals;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A background thread hit by an {@link Error} (not an exception: what a bare {@code catch (RuntimeException)} or an
 * executor lets end the work for good) reports it and goes on working.
 */
class BackgroundFailureTest {

  private static final int ERRORS = 3;

  private final TestSchema schema = new TestSchema();
  private final CapturedLog log = new CapturedLog();

  @AfterEach
  void close() {
    log.close();
    schema.close();
  }

  @Test
  @DisplayName("The deadline sweeper hit by Errors logs them and still expires a due call nobody reads")
  void sweeperSurvivesAnError() throws Exception {
    AtomicInteger thrown = new AtomicInteger();
    Clock failingInSweeps = new Clock() {
      @Override
      public ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(ZoneId zone) {
        return this;
      }

      @Override
      public Instant instant() {
        if (Thread.currentThread().getName().startsWith(StoreInternals.threadNamePrefix() + "deadline-sweeper")
            && thrown.incrementAndGet() <= ERRORS) {
          throw new Error("injected into a deadline sweep");
        }
        return Instant.now();
      }
    };
    SessionStore store = schema.store(builder -> builder.clock(failingInSweeps)
        .deadlineSweepInterval(Duration.ofMillis(50)));
    store.toolCalls().save(ToolCallWrite.of("call-1", "session-1", "approve"));
    store.toolCalls().expireAfter("session-1", "call-1", Duration.ofMillis(1));

    Eventually.until("the call expired by a sweep", () -> "expired".equals(schema.queryValue(
        "SELECT status FROM \"" + schema.name() + "\".session_store_tool_calls WHERE id = 'call-1'")));
    assertThat(thrown.get()).as("sweeps the clock failed").isGreaterThan(ERRORS);
    assertThat(log.lines("deadline sweep failed")).as("warnings").hasSize(1);
    assertThat(log.lines("injected into a deadline sweep")).as("the error reported").isNotEmpty();
  }

  @Test
  @DisplayName("The notification sender hit by Errors logs them and still wakes another instance's waiting read")
  void notifierSurvivesAnError() throws Exception {
    AtomicInteger thrown = new AtomicInteger();
    SessionStore writing = schema.store(failingOnNotifierThread(schema.pool(5), thrown), builder -> builder);
    SessionStore waiting = schema.store(builder -> builder.waitPollInterval(Duration.ofMinutes(10)));

    assertWakesOn(waiting, writing, "woken-despite-errors");

    assertThat(thrown.get()).as("connections the sender failed to get").isGreaterThan(ERRORS);
    assertThat(log.lines("notifications on session_store." + schema.name())).as("warnings and recovery")
        .anyMatch(line -> line.contains("failed"))
        .anyMatch(line -> line.contains("sent again"));
    assertThat(log.lines("injected into the notifier")).as("the error reported").isNotEmpty();
  }

  /** {@code dataSource}, throwing an {@link Error} the first times the notification sender asks for a connection. */
  private static DataSource failingOnNotifierThread(DataSource dataSource, AtomicInteger thrown) {
    return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
        (proxy, method, arguments) -> {
          if (method.getName().equals("getConnection")
              && Thread.currentThread().getName().startsWith(StoreInternals.threadNamePrefix() + "notifier")
              && thrown.incrementAndGet() <= ERRORS) {
            throw new Error("injected into the notifier");
          }
          try {
            return method.invoke(dataSource, arguments);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }
}
