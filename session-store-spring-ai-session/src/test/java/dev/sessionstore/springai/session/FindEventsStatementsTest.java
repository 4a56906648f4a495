package dev.sessionstore.springai.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.Limits;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import dev.sessionstore.jdbc.StatementCounter;
import dev.sessionstore.jdbc.TestDatabase;
import dev.sessionstore.springai.session.internal.SessionEventCodec;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.session.EventFilter;
import org.springframework.ai.session.Session;
import org.springframework.ai.session.SessionEvent;

/**
 * {@code findEvents} with the last 20 executes the same SQL statements on PostgreSQL at 10 and 10,000 events, and as
 * few as its answer needs: counted, not timed. The store's deadline sweep and notifications are off, so only the read
 * counts. The histories are written through the store in batches of the events {@code appendEvent} writes (the
 * repository's codec), so that filling 10,000 events stays cheap.
 */
class FindEventsStatementsTest {

  private static final int LAST = 20;
  private static final Instant T0 = Instant.now().truncatedTo(ChronoUnit.MILLIS).minus(Duration.ofHours(1));

  @Test
  @DisplayName("the last 20 of a log without a compaction is one statement at 10 and at 10,000 events")
  void lastTwentyIsOneStatement() {
    List<String> atTen = statements(10, false);
    List<String> atTenThousand = statements(10_000, false);

    System.out.printf("findEvents last %d on PostgreSQL at 10 / 10,000 events: %d / %d statements%n", LAST,
        atTen.size(), atTenThousand.size());
    assertThat(atTenThousand).hasSize(1).isEqualTo(atTen);
  }

  @Test
  @DisplayName("the last 20 reaching back past a compaction is the same few statements at 10 and at 10,000 events")
  void pastACompactionIsFlat() {
    List<String> atTen = statements(10, true);
    List<String> atTenThousand = statements(10_000, true);

    System.out.printf("findEvents last %d past a compaction on PostgreSQL at 10 / 10,000 events: %d / %d statements%n",
        LAST, atTen.size(), atTenThousand.size());
    assertThat(atTenThousand).hasSizeLessThanOrEqualTo(3).isEqualTo(atTen);
  }

  /**
   * The statements {@code findEvents(lastN 20)} executes on a session of {@code length} events, their schema named
   * {@code <schema>}; when {@code compacted}, all but the last two were archived by a compaction, and five events
   * follow it. Checks the answer.
   */
  private static List<String> statements(int length, boolean compacted) {
    String schema = TestDatabase.uniqueName("sais_find");
    StatementCounter statements = new StatementCounter();
    HikariDataSource pool = new HikariDataSource();
    pool.setPoolName(schema);
    pool.setDataSource(TestDatabase.get().adminDataSource());
    pool.setMaximumPoolSize(2);
    pool.setMinimumIdle(0);
    try (pool; SessionStore store = JdbcSessionStore.builder().dataSource(statements.wrap(pool)).schema(schema)
        .notifications(false).deadlineSweepInterval(Duration.ofHours(1)).build()) {
      SessionStoreSessionRepository repository = SessionStoreSessionRepository.of(store);
      repository.save(Session.builder().id("s").userId("u").createdAt(T0).build());
      List<SessionEvent> history = events(0, length);
      append(store, history);
      List<SessionEvent> expected = new ArrayList<>(history);
      if (compacted) {
        List<SessionEvent> retained = history.subList(length - 2, length);
        assertThat(repository.compactEvents("s", history.subList(0, length - 2), retained,
            repository.getEventVersion("s"))).isTrue();
        List<SessionEvent> after = events(length, 5);
        after.forEach(repository::appendEvent);
        expected = new ArrayList<>(history.subList(0, length - 2));
        expected.addAll(retained);
        expected.addAll(after);
      }
      List<String> expectedIds = expected.subList(Math.max(0, expected.size() - LAST), expected.size()).stream()
          .map(SessionEvent::getId).toList();

      List<String> before = statements.texts();
      List<SessionEvent> read = repository.findEvents("s", EventFilter.lastN(LAST));
      List<String> executed = statements.texts();

      assertThat(read).extracting(SessionEvent::getId).isEqualTo(expectedIds);
      return executed.subList(before.size(), executed.size()).stream()
          .map(text -> text.replace(schema, "<schema>")).toList();
    } finally {
      TestDatabase.get().execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
  }

  /** {@code count} events of session {@code s} from the {@code first}th, a user question then an answer, and so on. */
  private static List<SessionEvent> events(int first, int count) {
    List<SessionEvent> events = new ArrayList<>(count);
    for (int i = first; i < first + count; i++) {
      events.add(SessionEvent.builder().id("e" + i).sessionId("s").timestamp(T0.plusMillis(i))
          .message(i % 2 == 0 ? new UserMessage("question " + i) : new AssistantMessage("answer " + i)).build());
    }
    return events;
  }

  private static void append(SessionStore store, List<SessionEvent> events) {
    List<NewEvent> encoded = events.stream().map(SessionEventCodec::encode).toList();
    for (int from = 0; from < encoded.size(); from += Limits.MAX_BATCH_SIZE) {
      store.events().appendAll("s", encoded.subList(from, Math.min(from + Limits.MAX_BATCH_SIZE, encoded.size())));
    }
  }
}
