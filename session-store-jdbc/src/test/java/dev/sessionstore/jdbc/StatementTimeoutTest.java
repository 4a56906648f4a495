package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.NewEvent;
import dev.sessionstore.OutcomeUnknownException;
import dev.sessionstore.SessionStore;
import dev.sessionstore.StoreFailureException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@code statementTimeout}: a statement that runs past it fails its call with a typed, retryable error and writes
 * nothing; without it the same call waits for the lock; SQLite refuses the setting.
 */
class StatementTimeoutTest {

  private final TestSchema schema = new TestSchema();

  @AfterEach
  void dropSchema() {
    schema.close();
  }

  @Test
  @DisplayName("An append waiting past the statement timeout for a session row another connection holds locked"
      + " fails retryably with 57014, and stores nothing")
  void statementPastTheTimeoutFails() throws Exception {
    SessionStore store = schema.store(builder -> builder.statementTimeout(Duration.ofMillis(300)));
    store.events().append("s-1", NewEvent.of("first"));

    Throwable failure;
    long elapsed;
    try (Connection locker = TestDatabase.get().adminDataSource().getConnection()) {
      locker.setAutoCommit(false);
      try (PreparedStatement lock = locker.prepareStatement("SELECT 1 FROM \"" + schema.name()
          + "\".session_store_sessions WHERE id = 's-1' FOR UPDATE")) {
        lock.executeQuery().close();
      }
      long start = System.nanoTime();
      failure = catchThrowable(() -> store.events().append("s-1", NewEvent.of("second")));
      elapsed = System.nanoTime() - start;
      locker.rollback();
    }

    assertThat(failure).isInstanceOf(StoreFailureException.class).isNotInstanceOf(OutcomeUnknownException.class)
        .hasMessageContaining("[57014]").hasMessageContaining("statement timeout");
    assertThat(((StoreFailureException) failure).isRetryable()).as("retryable").isTrue();
    assertThat(Duration.ofNanos(elapsed)).isBetween(Duration.ofMillis(250), Duration.ofSeconds(10));
    assertThat(store.events().lastSeq("s-1")).isEqualTo(1);
    assertThat(store.events().append("s-1", NewEvent.of("second")).seq()).as("once the lock is gone").isEqualTo(2);
  }

  @Test
  @DisplayName("Without a statement timeout the same append waits for the lock and succeeds once it is released")
  void withoutTimeoutTheAppendWaits() throws Exception {
    SessionStore store = schema.store(builder -> builder);
    store.events().append("s-1", NewEvent.of("first"));

    try (Connection locker = TestDatabase.get().adminDataSource().getConnection()) {
      locker.setAutoCommit(false);
      try (PreparedStatement lock = locker.prepareStatement("SELECT 1 FROM \"" + schema.name()
          + "\".session_store_sessions WHERE id = 's-1' FOR UPDATE")) {
        lock.executeQuery().close();
      }
      Thread releaser = new Thread(() -> {
        try {
          Thread.sleep(600);
          locker.rollback();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      releaser.start();
      assertThat(store.events().append("s-1", NewEvent.of("second")).seq()).isEqualTo(2);
      releaser.join();
    }
  }

  @Test
  @DisplayName("SQLite refuses a statement timeout at build, naming statementTimeout")
  void sqliteRefusesIt() throws Exception {
    Path folder = Files.createTempDirectory("session-store-statement-timeout-");
    Throwable failure = catchThrowable(() -> JdbcSessionStore.builder()
        .jdbcUrl("jdbc:sqlite:" + folder.resolve("agents.db")).statementTimeout(Duration.ofSeconds(1)).build()
        .close());

    assertThat(failure).isInstanceOfSatisfying(InvalidArgumentException.class,
        e -> assertThat(e.field()).isEqualTo("statementTimeout"));
  }
}
