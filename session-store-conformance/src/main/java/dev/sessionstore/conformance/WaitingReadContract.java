package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.sessionstore.Capability;
import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.NewEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
 * Waiting reads (SPEC guarantee 8, {@link Capability#WAITING_READS}): {@link EventLog#await} returns at once when the
 * query already matches, wakes as soon as a matching event is appended from another thread, keeps waiting through
 * appends that do not match (other sessions, types, runs), and returns an empty page when the timeout passes.
 *
 * <p>These tests use real time, with bounds generous enough for a loaded two-core machine: a wake-up must come well
 * before the timeout, and a timeout must not end early nor much later than asked. Each test takes at most about two
 * seconds.
 *
 * <p>If this fails, check: that the waiter re-runs the query after each wake-up and only returns when it is
 * non-empty or the deadline has passed (a spurious or unrelated wake-up must not end the wait); that every append
 * path, batches and step commits included, signals waiters after its write is visible; that all waiters are woken, not
 * one; and that the remaining time is recomputed after each wake-up rather than restarting the full timeout.
 */
public abstract class WaitingReadContract extends Contract {

  /** A timeout no passing test waits for: reaching it means the read did not wake. */
  private static final Duration LONG = Duration.ofSeconds(4);
  /** How long the kit lets a waiter settle into its wait before appending. */
  private static final long SETTLE_MILLIS = 150;
  /** Slack for a wake-up or a return on a loaded machine. */
  private static final long SLACK_MILLIS = 1500;

  private ExecutorService threads;

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

  @AfterEach
  final void stopThreads() {
    threads.shutdownNow();
  }

  private EventLog log() {
    return store.events();
  }

  /** A waiting read running on another thread, with the time it took. */
  private record Waiter(Future<EventPage> page, long startNanos, long[] endNanos) {

    EventPage get(String what) {
      try {
        return page.get(LONG.toMillis() + 5000, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        throw new AssertionError(what + ": await did not return long after its timeout");
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

    long millisAfter(long nanos) {
      return TimeUnit.NANOSECONDS.toMillis(endNanos[0] - nanos);
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

  private static long millisSince(long nanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
  }

  @Test
  @Tag("guarantee-8")
  @DisplayName("A waiting read returns at once when matching events already exist")
  void returnsAtOnceWhenEventsExist() {
    String session = id("s");
    Event first = log().append(session, event("a"));
    Event second = log().append(session, event("b"));

    long start = System.nanoTime();
    EventPage page = log().await(session, EventQuery.all(), LONG);
    long took = millisSince(start);

    assertThat(page.items()).containsExactly(first, second);
    assertThat(took).as("milliseconds a read with matching data waited (timeout %s)", LONG)
        .isLessThan(SLACK_MILLIS);
  }

  @Test
  @Tag("guarantee-8")
  @DisplayName("A waiting read wakes on the first matching append from another thread, well before the timeout")
  void wakesOnAnAppendFromAnotherThread() {
    String session = id("s");
    log().append(session, event("old"));
    Waiter waiter = startWaiting(session, EventQuery.all().after(1), LONG);
    pause(SETTLE_MILLIS);

    long appendedAt = System.nanoTime();
    Event appended = log().append(session, event("new"));
    EventPage page = waiter.get("waiting for seq > 1");

    assertThat(page.items()).as("events returned by the waiting read").containsExactly(appended);
    assertThat(waiter.millisAfter(appendedAt)).as("milliseconds from the append to the wake-up (timeout %s)", LONG)
        .isLessThan(SLACK_MILLIS);
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
    assertThat(waiter.millisFromStart()).isLessThan(SETTLE_MILLIS + SLACK_MILLIS);
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
        .isLessThan(timeout.toMillis() + SLACK_MILLIS);
  }

  @Test
  @Tag("guarantee-8")
  @DisplayName("Non-matching appends during the wait neither end it nor extend it past the timeout")
  void nonMatchingAppendsDoNotExtendTheTimeout() {
    String session = id("s");
    Duration timeout = Duration.ofMillis(400);
    Waiter waiter = startWaiting(session, EventQuery.all().types("answer"), timeout);

    // noise every 100 ms for up to 1.5 s: a wait that restarts its timeout on each wake-up would outlast it
    for (int i = 0; i < 15 && !waiter.page().isDone(); i++) {
      pause(100);
      log().append(session, NewEvent.of("noise").withId("n-" + i));
    }
    EventPage page = waiter.get("waiting through noise");

    assertThat(page.items()).as("events returned to a reader waiting for type answer").isEmpty();
    assertThat(waiter.millisFromStart()).as("milliseconds waited with a timeout of %s", timeout)
        .isGreaterThanOrEqualTo(timeout.toMillis() - 20)
        .isLessThan(timeout.toMillis() + 1000);
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
    for (Waiter waiter : List.of(some, none, unknown)) {
      assertThat(waiter.millisFromStart()).as("milliseconds taken by a read with a zero timeout")
          .isLessThan(SLACK_MILLIS);
    }
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

    long appendedAt = System.nanoTime();
    Event appended = log().append(session, event("wake-all"));

    for (int i = 0; i < waiters.size(); i++) {
      Waiter waiter = waiters.get(i);
      assertThat(waiter.get("waiter " + i).items()).as("events returned to waiter %d", i).containsExactly(appended);
      assertThat(waiter.millisAfter(appendedAt)).as("milliseconds from the append to waking waiter %d", i)
          .isLessThan(SLACK_MILLIS);
    }
  }
}
