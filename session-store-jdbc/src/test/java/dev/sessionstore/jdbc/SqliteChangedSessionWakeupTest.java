package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Event;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.jdbc.internal.StoreInternals;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On SQLite, another instance's commit wakes only the waiting reads of the sessions it changed: the change counter
 * says that something changed, the listener finds out what. Counted, not timed: the waiting store never polls within
 * the test, every write is made once the reads are seen parked ({@link StoreInternals#parkedReads}), and wake-ups
 * are counted per session ({@link StoreInternals#wakeUps}). A second write, observed through a read that returns it,
 * proves the listener has finished the look that handled the first.
 */
class SqliteChangedSessionWakeupTest {

  private static final Duration NEVER_POLLS = Duration.ofMinutes(10);
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final int SESSIONS = 12;

  @TempDir
  Path folder;

  private final List<SessionStore> stores = new ArrayList<>();
  private final ExecutorService pool = Executors.newCachedThreadPool();
  private int markers;

  @AfterEach
  void close() throws InterruptedException {
    stores.forEach(SessionStore::close);
    pool.shutdownNow();
    // the reads the close ended finish on the pool's threads before the folder is deleted
    assertThat(pool.awaitTermination(WAIT.toSeconds(), TimeUnit.SECONDS)).as("waiting reads ended").isTrue();
  }

  private SessionStore store(boolean waiting) {
    JdbcSessionStore.Builder builder = JdbcSessionStore.builder()
        .dataSource(SqliteConformanceTest.dataSource(folder.resolve("wake.db")));
    SessionStore store = (waiting ? builder.waitPollInterval(NEVER_POLLS) : builder).build();
    stores.add(store);
    return store;
  }

  @Test
  @DisplayName("An append by another instance to one of N waited sessions wakes that session's waiting reads only")
  void anAppendWakesOnlyItsSessionsWaiters() throws Exception {
    SessionStore writing = store(false);
    SessionStore waiting = store(true);
    List<CompletableFuture<EventPage>> reads = new ArrayList<>();
    for (int i = 0; i < SESSIONS; i++) {
      String session = "s-" + i;
      writing.events().append(session, NewEvent.of("first").withId("first"));
      reads.add(read(waiting, session));
      reads.add(read(waiting, session));
    }
    settle(waiting, writing, IntStream.range(0, SESSIONS).mapToObj(i -> "s-" + i).toList(), 2);
    long[] before = IntStream.range(0, SESSIONS).mapToLong(i -> StoreInternals.wakeUps(waiting, "s-" + i)).toArray();

    Event appended = writing.events().append("s-3", NewEvent.of("second").withId("second"));
    for (CompletableFuture<EventPage> read : List.of(reads.get(6), reads.get(7))) {
      assertThat(read.get(WAIT.toSeconds(), TimeUnit.SECONDS).items()).as("events a waiting read of s-3 returned")
          .containsExactly(appended);
    }
    awaitOneMoreLook(writing, waiting);

    for (int i = 0; i < SESSIONS; i++) {
      if (i != 3) {
        assertThat(StoreInternals.wakeUps(waiting, "s-" + i)).as("wake-ups of s-%d's waiting reads", i)
            .isEqualTo(before[i]);
        assertThat(StoreInternals.parkedReads(waiting, "s-" + i)).as("parked reads of s-%d", i).isEqualTo(2);
        assertThat(reads.get(2 * i)).as("first waiting read of s-%d", i).isNotDone();
      }
    }
  }

  @Test
  @DisplayName("A tool call resolved, a log cut and re-grown to the same seq, and a session deleted each wake their "
      + "own session's waiting reads, and no other")
  void everyKindOfChangeWakesItsSessionOnly() throws Exception {
    SessionStore writing = store(false);
    SessionStore waiting = store(true);
    writing.events().appendAll("cut", List.of(NewEvent.of("a").withId("a"), NewEvent.of("b").withId("b")));
    writing.events().append("calls", NewEvent.of("tool_use").withId("use"));
    writing.toolCalls().save(ToolCallWrite.of("call", "calls", "approve").withRequestEventId("use"));
    writing.events().append("deleted", NewEvent.of("a").withId("a"));
    writing.events().append("quiet", NewEvent.of("a").withId("a"));
    CompletableFuture<Optional<ToolCall>> callWait = CompletableFuture.supplyAsync(
        () -> waiting.toolCalls().await("calls", "call", WAIT), pool);
    CompletableFuture<EventPage> cutRead = read(waiting, "cut", EventQuery.all().types("edited"));
    CompletableFuture<EventPage> deletedRead = read(waiting, "deleted", EventQuery.all().after(1));
    CompletableFuture<EventPage> quietRead = read(waiting, "quiet", EventQuery.all().after(1));
    settle(waiting, writing, List.of("calls", "cut", "deleted", "quiet"), 1);
    long quietBefore = StoreInternals.wakeUps(waiting, "quiet");

    writing.toolCalls().resolve("calls", "call", ToolCallStatus.COMPLETED, null);
    assertThat(callWait.get(WAIT.toSeconds(), TimeUnit.SECONDS).map(ToolCall::status)).as("the tool-call wait")
        .contains(ToolCallStatus.COMPLETED);
    writing.events().truncate("cut", 2);
    Event edited = writing.events().append("cut", NewEvent.of("edited").withId("b2"));
    assertThat(cutRead.get(WAIT.toSeconds(), TimeUnit.SECONDS).items()).as("the read of the cut session")
        .containsExactly(edited);
    long deletedBefore = StoreInternals.wakeUps(waiting, "deleted");
    writing.sessions().delete("deleted");
    awaitOneMoreLook(writing, waiting);

    assertThat(StoreInternals.wakeUps(waiting, "deleted")).as("wake-ups of the deleted session's waiting read")
        .isGreaterThan(deletedBefore);
    assertThat(deletedRead).as("the deleted session's waiting read, woken to an empty log").isNotDone();

    assertThat(StoreInternals.wakeUps(waiting, "quiet")).as("wake-ups of the quiet session's waiting read")
        .isEqualTo(quietBefore);
    assertThat(quietRead).as("the quiet session's waiting read").isNotDone();
  }

  /**
   * Returns once {@code reads} waiting reads of each of {@code sessions} are parked and the listener has looked at
   * them after a change: a read that began waiting since the listener's last look has no fingerprint recorded, and
   * the first change anywhere wakes it once, to be safe.
   */
  private void settle(SessionStore waiting, SessionStore writing, List<String> sessions, int reads)
      throws Exception {
    Eventually.until("the waiting reads parked", () -> sessions.stream()
        .allMatch(session -> StoreInternals.parkedReads(waiting, session) == reads));
    awaitOneMoreLook(writing, waiting);
    Eventually.until("the waiting reads parked again", () -> sessions.stream()
        .allMatch(session -> StoreInternals.parkedReads(waiting, session) == reads));
  }

  private CompletableFuture<EventPage> read(SessionStore store, String session) {
    return read(store, session, EventQuery.all().after(1));
  }

  private CompletableFuture<EventPage> read(SessionStore store, String session, EventQuery query) {
    return CompletableFuture.supplyAsync(() -> store.events().await(session, query, WAIT), pool);
  }

  /**
   * Appends to a session of its own through {@code writing} once a read of it waits in {@code waiting}, and returns
   * when that read returns the event: the listener has finished every look before the one that woke it.
   */
  private void awaitOneMoreLook(SessionStore writing, SessionStore waiting) throws Exception {
    String session = "marker-" + ++markers;
    CompletableFuture<EventPage> marker = read(waiting, session, EventQuery.all());
    Eventually.until("the marker read parked", () -> StoreInternals.parkedReads(waiting, session) == 1);
    Event appended = writing.events().append(session, NewEvent.of("marker"));
    assertThat(marker.get(WAIT.toSeconds(), TimeUnit.SECONDS).items()).as("the marker read")
        .containsExactly(appended);
  }
}
