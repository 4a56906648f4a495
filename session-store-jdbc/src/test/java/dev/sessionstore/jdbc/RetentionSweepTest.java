package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The retention schedule on PostgreSQL: every instance built with it sweeps the database, sessions another transaction
 * holds are skipped ({@code SKIP LOCKED}) and taken up by a later sweep, and several instances share the work. The
 * sessions are written by an instance whose clock stands two hours before the sweepers', so they are idle for them;
 * waits are bounded polls of the table.
 */
class RetentionSweepTest {

  private static final Instant WRITTEN = Instant.parse("2030-01-01T00:00:00Z");
  private static final Clock WRITER_CLOCK = Clock.fixed(WRITTEN, ZoneOffset.UTC);
  private static final Clock SWEEPER_CLOCK = Clock.fixed(WRITTEN.plus(Duration.ofHours(2)), ZoneOffset.UTC);
  private static final RetentionPolicy IDLE_FOR_AN_HOUR =
      RetentionPolicy.builder().deleteSessionsIdleFor(Duration.ofHours(1)).build();
  private static final Duration PATIENCE = Duration.ofSeconds(20);

  private final TestSchema schema = new TestSchema();

  @AfterEach
  void dropSchema() {
    schema.close();
  }

  @Test
  @DisplayName("Three sweeping instances together delete 300 idle sessions; none is left, none fails")
  void instancesShareTheSweep() throws InterruptedException {
    SessionStore writer = schema.store(builder -> builder.clock(WRITER_CLOCK));
    for (int i = 0; i < 300; i++) {
      writer.sessions().save(SessionWrite.of("idle-" + i));
    }
    for (int i = 0; i < 3; i++) {
      schema.store(builder -> builder.clock(SWEEPER_CLOCK).retention(IDLE_FOR_AN_HOUR, Duration.ofMillis(20)));
    }

    assertThat(awaitSessions(0)).as("sessions left after the sweeps").isZero();
  }

  @Test
  @DisplayName("A sweep skips a session another transaction holds, goes on with the next, and deletes it once free")
  void aHeldSessionIsSkippedThenSwept() throws Exception {
    SessionStore writer = schema.store(builder -> builder.clock(WRITER_CLOCK));
    writer.sessions().save(SessionWrite.of("a-held"));
    writer.sessions().save(SessionWrite.of("b-free"));
    try (HikariDataSource pool = schema.pool(1); Connection holder = pool.getConnection()) {
      holder.setAutoCommit(false);
      try (PreparedStatement lock = holder.prepareStatement("SELECT id FROM \"" + schema.name()
          + "\".session_store_sessions WHERE id = 'a-held' FOR UPDATE"); ResultSet locked = lock.executeQuery()) {
        assertThat(locked.next()).as("the held row").isTrue();
      }
      SessionStore sweeper = schema.store(builder -> builder.clock(SWEEPER_CLOCK)
          .retention(IDLE_FOR_AN_HOUR, Duration.ofMillis(20)));

      assertThat(awaitSessions(1)).as("sessions left while a-held is held").isEqualTo(1);
      assertThat(sweeper.sessions().find("a-held")).as("the held session").isPresent();
      holder.commit();
    }

    assertThat(awaitSessions(0)).as("sessions left once a-held is free").isZero();
  }

  private long awaitSessions(long expected) throws InterruptedException {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    long count;
    do {
      count = ((Number) schema.queryValue("SELECT count(*) FROM \"" + schema.name()
          + "\".session_store_sessions")).longValue();
      if (count == expected) {
        return count;
      }
      Thread.sleep(20);
    } while (System.nanoTime() < deadline);
    return count;
  }
}
