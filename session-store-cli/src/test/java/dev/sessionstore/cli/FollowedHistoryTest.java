package dev.sessionstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What {@code events --follow} takes for a change of history, checked step by step where the follower's timing
 * cannot decide the outcome (the follow tests run it in a process of its own): every change is named, and a log that
 * only grows is never taken for one.
 */
class FollowedHistoryTest {

  private static final String ID = "followed";

  /** Moves one millisecond at each reading, so that a session created again has another creation time. */
  private final Clock clock = new Clock() {
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");

    @Override
    public synchronized Instant instant() {
      now = now.plus(Duration.ofMillis(1));
      return now;
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  };

  private final SessionStore store = InMemorySessionStore.builder().clock(clock).build();

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  @DisplayName("A log that grows, read page by page, is one history")
  void growingLog() {
    FollowedHistory history = followAfterThreeEvents();

    append("e4", "e5");
    assertThat(history.check(read(3))).isEmpty();
    append("e6");
    assertThat(history.check(read(5))).isEmpty();
    assertThat(history.check(read(6))).as("an empty page").isEmpty();
  }

  @Test
  @DisplayName("A session deleted and created again with its id is a replaced history, even with the same event ids")
  void replaced() {
    FollowedHistory history = followAfterThreeEvents();

    store.sessions().delete(ID);
    append("e1", "e2", "e3", "e4");

    assertChange(history.check(read(3)), HistoryChange.Kind.REPLACED, "session followed was replaced (created again at");
  }

  @Test
  @DisplayName("A deleted session is named as deleted")
  void deleted() {
    FollowedHistory history = followAfterThreeEvents();

    store.sessions().delete(ID);

    assertChange(history.check(read(3)), HistoryChange.Kind.DELETED,
        "session followed was deleted; waiting for it to be created again");
  }

  @Test
  @DisplayName("A log cut below what was printed: its last seq went back")
  void truncatedBelow() {
    FollowedHistory history = followAfterThreeEvents();

    store.events().truncate(ID, 2);

    assertChange(history.check(read(3)), HistoryChange.Kind.TRUNCATED,
        "session followed was truncated (its last seq went back from 3 to 1)");
  }

  @Test
  @DisplayName("A log cut and grown again past what was printed: the event printed last is gone from its seq")
  void truncatedAndGrownAgain() {
    FollowedHistory history = followAfterThreeEvents();

    store.events().truncate(ID, 2);
    append("x2", "x3", "x4", "x5");

    EventPage next = read(3);
    assertThat(next.items()).extracting(event -> event.id()).containsExactly("x4", "x5");
    assertChange(history.check(next), HistoryChange.Kind.TRUNCATED,
        "session followed was truncated (event e3 is no longer at seq 3)");
  }

  @Test
  @DisplayName("A page read before the log was cut under it: its newest event is gone")
  void pageCutAfterItWasRead() {
    FollowedHistory history = followAfterThreeEvents();
    append("e4", "e5");
    EventPage next = read(3);

    store.events().truncate(ID, 5);

    assertChange(history.check(next), HistoryChange.Kind.TRUNCATED,
        "session followed was truncated (event e5 is no longer at seq 5)");
  }

  private FollowedHistory followAfterThreeEvents() {
    append("e1", "e2", "e3");
    FollowedHistory history = new FollowedHistory(store, store.sessions().find(ID).orElseThrow());
    assertThat(history.check(read(0))).isEmpty();
    return history;
  }

  private void append(String... ids) {
    store.events().appendAll(ID, List.of(ids).stream().map(id -> NewEvent.of("user_message").withId(id)).toList());
  }

  private EventPage read(long after) {
    return store.events().read(ID, EventQuery.all().after(after));
  }

  private static void assertChange(Optional<HistoryChange> change, HistoryChange.Kind kind, String notice) {
    assertThat(change).as("a change").isPresent();
    assertThat(change.get().kind()).isEqualTo(kind);
    assertThat(change.get().notice()).startsWith(notice);
  }
}
