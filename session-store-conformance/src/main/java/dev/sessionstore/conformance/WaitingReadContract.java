package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.sessionstore.Capability;
import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.ImportOutcome;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Step;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Waiting reads (guarantee 8 of docs/guarantees.md, {@link Capability#WAITING_READS}): {@link EventLog#await} returns
 * at once when the query already matches, wakes as soon as a matching event is appended from another thread, keeps
 * waiting through appends that do not match (other sessions, types, runs), and returns an empty page when the timeout
 * passes.
 *
 * The same holds for a session that a fork creates while a read waits on its id, and for a session deleted during
 * the wait: the read keeps waiting and wakes on an append to the session's id.
 *
 * <p>These tests use real time, judged by observed states rather than by speed: a read that must wake waits with a
 * timeout of minutes and must return within {@link #RETURN_BOUND_MILLIS}, which a loaded machine stays far inside
 * and a read that is never woken overruns; a read that must time out must not end early, nor after many times its
 * timeout. A passing test takes well under a second on an idle machine.
 *
 * <p>If this fails, check: that the waiter re-runs the query after each wake-up and only returns when it is
 * non-empty or the deadline has passed (a spurious or unrelated wake-up must not end the wait); that every append
 * path, batches, step commits and forks included, signals waiters after its write is visible; that all waiters are
 * woken, not one; that a waiter on a deleted session goes on waiting on the id, not on the deleted session's state;
 * and that the remaining time is recomputed after each wake-up rather than restarting the full timeout.
 */
public abstract class WaitingReadContract extends Contract {

  /** A timeout no passing test waits for: reaching it means the read did not wake. */
  private static final Duration LONG = Duration.ofMinutes(2);
  /**
   * How long the kit waits for a read to return once it should: a read that wakes returns within milliseconds, on a
   * loaded machine within a few seconds; one that is not woken waits for {@link #LONG}.
   */
  private static final long RETURN_BOUND_MILLIS = 30_000;
  /** How long the kit lets a waiter settle into its wait before appending. */
  private static final long SETTLE_MILLIS = 150;
  /** How much later than its timeout a timed-out read may return on a loaded machine. */
  private static final long LATE_MILLIS = 5_000;
  /** Noise appends of a test that a wait restarting its timeout on each wake-up would outlast. */
  private static final int NOISE_APPENDS = 100;

  private ExecutorService threads;

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected WaitingReadContract(SessionStoreConformance kit) {
    super(kit);
  }

  @Override
  protected Set<Capability> requiredCapabilities() {
    return Set.of(Capability.WAITING_READS);
  }

  @BeforeEach
  final void startThreads() {
    threads = Executors.newCachedThreadPool(runnable -> {
      Thread thread = new Thread(runnable, "kit-waiter");
      thread.setDaemon(true);
      return thread;
    });
  }

  /** Runs also when the group was skipped before {@link #startThreads} (JUnit runs every after-each method). */
  @AfterEach
  final void stopThreads() {
    if (threads != null) {
      threads.shutdownNow();
    }
  }

  private EventLog log() {
    return store.events();
  }

  /** A waiting read running on another thread, with the time it took. */
  private record Waiter(Future<EventPage> page, long startNanos, long[] endNanos) {

    /** The page the read returned; fails if it does not return within {@link #RETURN_BOUND_MILLIS} from now. */
    EventPage get(String what) {
      try {
        return page.get(RETURN_BOUND_MILLIS, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        throw new AssertionError(what + ": await did not return within " + RETURN_BOUND_MILLIS
            + " ms: nothing woke it");
      } catch (ExecutionException e) {
        throw new AssertionError(what + ": await failed: " + e.getCause(), e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }

    long millisFromStart() {
      return TimeUnit.NANOSECONDS.toMillis(endNanos[0] - startNanos);
    }
  }

  private Waiter startWaiting(String sessionId, EventQuery query, Duration timeout) {
    long[] end = new long[1];
    long start = System.nanoTime();
    Future<EventPage> page = threads.submit(() -> {
      try {
        return log().await(sessionId, query, timeout);
      } finally {
        end[0] = System.nanoTime();
      }
    });
    return new Waiter(page, start, end);
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  @Test
  @Tag("guarantee-8")
  @DisplayName("A waiting read returns at once when matching events already exist")
  void returnsAtOnceWhenEventsExist() {
    String session = id("s");
    Event first = log().append(session, event("a"));
    Event second = log().append(session, event("b"));

    EventPage page = startWaiting(session, EventQuery.all(), LONG).get("waiting with matching events stored");

    assertThat(page.items()).containsExactly(first, second);
  }

  @Test
  @Tag("guarantee-8")
  @DisplayName("A waiting read wakes on the first matching append from another thread, well before the timeout")
  void wakesOnAnAppendFromAnotherThread() {
    String session = id("s");
    log().append(session, event("old"));
    Waiter waiter = startWaiting(session, EventQuery.all().after(1), LONG);
    pause(SETTLE_MILLIS);

    Event appended = log().append(session, event("new"));
    EventPage page = waiter.get("waiting for seq > 1");

    assertThat(page.items()).as("events returned by the waiting read").containsExactly(appended);
  }

  @Test
  @Tag("guarantee-8")
  @DisplayName("A waiting read wakes on a batch append and returns the page its query names")
  void wakesOnABatchAndReturnsTheQueriedPage() {
    String session = id("s");
    Waiter waiter = startWaiting(session, EventQuery.all().first(2), LONG);
    pause(SETTLE_MILLIS);

    List<Event> batch = log().appendAll(session, List.of(event("a"), event("b"), event("c")));
    EventPage page = waiter.get("waiting for the first 2 events");

    assertThat(page.items()).containsExactly(batch.get(0), batch.get(1));
    assertThat(page.nextCursor()).hasValue(2);
  }

  @Test
  @Tag("guarantee-8")
  @DisplayName("Appends to other sessions do not end the wait; the matching append does")
  void ignoresAppendsToOtherSessions() {
    String session = id("s");
    String other = id("other");
    Waiter waiter = startWaiting(session, EventQuery.all(), LONG);
    pause(SETTLE_MILLIS);

    log().append(other, event("elsewhere-1"));
    log().appendAll(other, List.of(event("elsewhere-2"), event("elsewhere-3")));
    pause(SETTLE_MILLIS);
    assertThat(waiter.page().isDone()).as("waiting read returned after appends to another session").isFalse();
    Event mine = log().append(session, event("mine"));

    assertThat(waiter.get("waiting on one session").items()).containsExactly(mine);
  }

  @Test
  @Tag("guarantee-8")
  @DisplayName("Events of other types do not end a wait filtered by type; then only the matching ones are returned")
  void ignoresEventsOfOtherTypes() {
    String session = id("s");
    Waiter waiter = startWaiting(session, EventQuery.all().types("answer"), LONG);
    pause(SETTLE_MILLIS);

    log().append(session, NewEvent.of("noise").withId("n-1"));
    log().append(session, NewEvent.of("noise").withId("n-2"));
    pause(SETTLE_MILLIS);
    assertThat(waiter.page().isDone()).as("waiting read returned after events of another type").isFalse();
    List<Event> batch = log().appendAll(session,
        List.of(NewEvent.of("noise").withId("n-3"), NewEvent.of("answer").withId("a-1")));

    EventPage page = waiter.get("waiting for an answer");
    assertThat(page.items()).as("events returned to a reader waiting for type answer").containsExactly(batch.get(1));
  }

  @Test
  @Tag("guarantee-8")
  @DisplayName("Events of other runs do not end a wait filtered by run")
  void ignoresEventsOfOtherRuns() {
    String session = id("s");
    Waiter waiter = startWaiting(session, EventQuery.all().runId("run-b"), LONG);
    pause(SETTLE_MILLIS);

    log().append(session, event("x").withRunId("run-a"));
    pause(SETTLE_MILLIS);
    assertThat(waiter.page().isDone()).as("waiting read returned after an event of another run").isFalse();
    Event wanted = log().append(session, event("y").withRunId("run-b"));

    assertThat(waiter.get("waiting for run-b").items()).containsExactly(wanted);
  }

  @Test
  @Tag("guarantee-8")
  @DisplayName("Without a matching append, a waiting read returns an empty page after about the timeout")
  void timesOutWithAnEmptyPage() {
    String session = id("s");
    log().append(session, event("a"));
    Duration timeout = Duration.ofMillis(400);

    Waiter waiter = startWaiting(session, EventQuery.all().after(1), timeout);
    EventPage page = waiter.get("waiting with nothing to come");

    assertThat(page.items()).as("events after a timeout").isEmpty();
    assertThat(page.nextCursor()).isEmpty();
    assertThat(waiter.millisFromStart()).as("milliseconds waited with a timeout of %s", timeout)
        .isGreaterThanOrEqualTo(timeout.toMillis() - 20)
        .isLessThan(timeout.toMillis() + LATE_MILLIS);
  }

  @Test
  @Tag("guarantee-8")
  @DisplayName("Non-matching appends during the wait neither end it nor extend it past the timeout")
  void nonMatchingAppendsDoNotExtendTheTimeout() {
    String session = id("s");
    Duration timeout = Duration.ofMillis(400);
    Waiter waiter = startWaiting(session, EventQuery.all().types("answer"), timeout);

    // noise every 100 ms for 10 s or more: a wait that restarts its timeout on each wake-up would outlast it
    for (int i = 0; i < NOISE_APPENDS && !waiter.page().isDone(); i++) {
      pause(100);
      log().append(session, NewEvent.of("noise").withId("n-" + i));
    }
    EventPage page = waiter.get("waiting through noise");

    assertThat(page.items()).as("events returned to a reader waiting for type answer").isEmpty();
    assertThat(waiter.millisFromStart()).as("milliseconds waited with a timeout of %s", timeout)
        .isGreaterThanOrEqualTo(timeout.toMillis() - 20)
        .isLessThan(timeout.toMillis() + LATE_MILLIS);
  }

  @Test
  @Tag("guarantee-8")
  @DisplayName("A timeout of zero behaves like read: it returns at once, with or without events")
  void zeroTimeoutBehavesLikeRead() {
    String session = id("s");
    log().appendAll(session, List.of(event("a"), event("b"), event("c")));

    Waiter some = startWaiting(session, EventQuery.all().last(2), Duration.ZERO);
    Waiter none = startWaiting(session, EventQuery.all().after(3), Duration.ZERO);
    Waiter unknown = startWaiting("unknown-session", EventQuery.all(), Duration.ZERO);

    assertThat(some.get("zero timeout with events")).isEqualTo(log().read(session, EventQuery.all().last(2)));
    assertThat(none.get("zero timeout after the last event").items()).isEmpty();
    assertThat(unknown.get("zero timeout on an unknown session").items()).isEmpty();
  }

  @Test
  @Tag("guarantee-8")
  @Tag("guarantee-15")
  @DisplayName("A negative timeout is rejected as an invalid timeout")
  void negativeTimeoutIsRejected() {
    String session = id("s");

    InvalidArgumentException error = catchThrowableOfType(InvalidArgumentException.class,
        () -> log().await(session, EventQuery.all(), Duration.ofMillis(-1)));

    assertThat(error).as("error for a timeout of -1 ms").isNotNull();
    assertThat(error.field()).isEqualTo("timeout");
  }

  @Test
  @Tag("guarantee-8")
  @DisplayName("One append wakes every reader waiting on the session")
  void oneAppendWakesEveryWaiter() {
    String session = id("s");
    List<Waiter> waiters = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      waiters.add(startWaiting(session, EventQuery.all(), LONG));
    }
    pause(SETTLE_MILLIS);

    Event appended = log().append(session, event("wake-all"));

    for (int i = 0; i < waiters.size(); i++) {
      assertThat(waiters.get(i).get("waiter " + i).items()).as("events returned to waiter %d", i)
          .containsExactly(appended);
    }
  }

  @Test
  @Tag("guarantee-8")
  @Tag("guarantee-16")
  @DisplayName("A step commit that appends wakes a waiting read")
  void wakesOnAStepCommit() {
    String session = id("s");
    log().append(session, event("old"));
    Waiter waiter = startWaiting(session, EventQuery.all().after(1), LONG);
    pause(SETTLE_MILLIS);

    store.commit(Step.builder(session).event(event("from-a-step")).build());

    assertThat(Events.ids(waiter.get("waiting for a step's events").items()))
        .as("events returned to the read waiting for a step").containsExactly("from-a-step");
  }

  @Test
  @Tag("guarantee-8")
  @DisplayName("A timeout too long to count in nanoseconds waits like any long one: an append still wakes the read")
  void anEndlessTimeoutStillWakes() {
    String session = id("s");
    Waiter waiter = startWaiting(session, EventQuery.all(), Duration.ofSeconds(Long.MAX_VALUE));
    pause(SETTLE_MILLIS);
    assertThat(waiter.page().isDone()).as("a read with an endless timeout returned before any append").isFalse();

    Event appended = log().append(session, event("at-last"));

    assertThat(waiter.get("waiting with an endless timeout").items()).containsExactly(appended);
  }

  @Test
  @Tag("guarantee-8")
  @DisplayName("A read waiting on an unknown id creates no session: it is not found, listed, merged, forked or deleted")
  void aWaitOnAnUnknownIdCreatesNothing() {
    String session = id("unknown");
    Waiter waiter = startWaiting(session, EventQuery.all(), LONG);
    pause(SETTLE_MILLIS);

    assertThat(store.sessions().find(session)).as("find of an id a read waits on").isEmpty();
    assertThat(store.sessions().list(SessionQuery.all()).items()).as("sessions listed").isEmpty();
    assertThat(log().lastSeq(session)).as("last seq of an id a read waits on").isZero();
    assertThat(catchThrowable(() -> store.sessions().mergeMetadata(session, Map.of("k", "v"))))
        .as("mergeMetadata of an id a read waits on").isInstanceOf(NotFoundException.class);
    assertThat(store.sessions().delete(session)).as("delete of an id a read waits on").isFalse();
    assertThat(waiter.page().isDone()).as("waiting read returned without an append").isFalse();

    Event appended = log().append(session, event("first"));
    assertThat(waiter.get("waiting on an unknown id").items()).containsExactly(appended);
  }

  @Test
  @Tag("guarantee-8")
  @Tag("guarantee-11")
  @DisplayName("A read waiting on an id that a fork then creates wakes with the fork's events")
  void wakesWhenAForkCreatesTheSession() {
    assumeDeclared(Capability.FORKS);
    String parent = id("parent");
    String fork = id("fork");
    log().appendAll(parent, List.of(event("a"), event("b"), event("c")));
    Waiter waiter = startWaiting(fork, EventQuery.all(), LONG);
    pause(SETTLE_MILLIS);

    store.sessions().fork(parent, 2, fork);
    EventPage page = waiter.get("waiting on the id of a fork to come");

    assertThat(Events.ids(page.items())).as("events returned to the read waiting on the fork's id")
        .containsExactly("a", "b");
    assertThat(page.items()).allSatisfy(event -> assertThat(event.sessionId()).isEqualTo(fork));
  }

  @Test
  @Tag("guarantee-8")
  @DisplayName("A read waiting on an id that an archive import then creates wakes with the imported events")
  void wakesWhenAnImportCreatesTheSession() {
    assumeDeclared(Capability.ARCHIVES);
    String imported = id("imported");
    SessionArchive archive;
    try (SessionStore source = otherStore()) {
      source.events().appendAll(imported, List.of(event("a"), event("b")));
      archive = source.archives().export(imported).orElseThrow();
    }
    Waiter waiter = startWaiting(imported, EventQuery.all(), LONG);
    pause(SETTLE_MILLIS);

    assertThat(store.archives().importSession(archive)).as("import").isEqualTo(ImportOutcome.IMPORTED);
    EventPage page = waiter.get("waiting on the id of an import to come");

    assertThat(page.items()).as("events returned to the read waiting on the imported id")
        .isEqualTo(Events.readAll(log(), imported));
    assertThat(Events.ids(page.items())).containsExactly("a", "b");
  }

  @Test
  @Tag("guarantee-8")
  @Tag("guarantee-11")
  @DisplayName("A read waiting on a fork is not woken by appends to its parent, and is by an append to the fork")
  void aForksWaiterWakesOnTheForksAppendsOnly() {
    assumeDeclared(Capability.FORKS);
    String parent = id("parent");
    log().appendAll(parent, List.of(event("a"), event("b")));
    String fork = store.sessions().fork(parent, 2).id();
    Waiter waiter = startWaiting(fork, EventQuery.all().after(2), LONG);
    pause(SETTLE_MILLIS);

    log().append(parent, event("parent-only"));
    log().appendAll(parent, List.of(event("parent-only"), event("parent-only")));
    pause(SETTLE_MILLIS);
    assertThat(waiter.page().isDone()).as("a read waiting on the fork returned after appends to the parent")
        .isFalse();
    Event mine = log().append(fork, event("fork-only"));
    EventPage page = waiter.get("waiting on the fork after seq 2");

    assertThat(page.items()).as("events returned to the read waiting on the fork").containsExactly(mine);
  }

  @Test
  @Tag("guarantee-8")
  @Tag("guarantee-14")
  @DisplayName("A read waiting on a session that is deleted keeps waiting and wakes on the next append to its id")
  void aDeletedSessionsWaiterWakesOnTheNextAppend() {
    String session = id("s");
    log().appendAll(session, List.of(event("a"), event("b")));
    Waiter waiter = startWaiting(session, EventQuery.all().types("answer"), LONG);
    pause(SETTLE_MILLIS);

    assertThat(store.sessions().delete(session)).as("deleting the session read by a waiter").isTrue();
    pause(SETTLE_MILLIS);
    assertThat(waiter.page().isDone()).as("waiting read returned when its session was deleted").isFalse();
    Event answer = log().append(session, NewEvent.of("answer").withId("answer"));

    assertThat(waiter.get("waiting on a deleted session's id").items())
        .as("events returned to the read waiting through the deletion").containsExactly(answer);
    assertThat(answer.seq()).as("seq of the first event after the deletion").isEqualTo(1);
  }
}
