package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Capability;
import dev.sessionstore.NewEvent;
import dev.sessionstore.Step;
import dev.sessionstore.StepOutcome;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Waiting for a tool call ({@code toolCalls().await}, guarantee 10 of docs/guarantees.md): the call comes back at once
 * when already resolved or expired, the wait ends on a resolution or on expiry by the store clock and on nothing else
 * (not on a re-save of the call, nor a moved or cancelled deadline), and a timeout returns empty.
 *
 * <p>If this fails, check: that a resolution (and an expiry, found by a sweep or a clock re-check while waiting)
 * signals the waiters of that session's call, and that the wait re-reads the call after every wake and goes on
 * waiting while it is still pending (a re-save, a moved or cancelled deadline may wake it, never end it); that waiters are
 * keyed by session and call id, so the same call id in another session neither ends nor answers the wait; that a
 * step resolving a call it registers signals too; and that a fork's copy of a call carries its own deadline.
 */
public abstract class ToolCallWaitContract extends Contract {

  /** How long a waiter that should be woken is willing to wait: far beyond any wake-up. */
  static final Duration LONG_WAIT = Duration.ofSeconds(20);
  /** How soon after the event that ends the wait the waiter must have returned: half its own timeout. */
  static final Duration WAKE_BOUND = LONG_WAIT.dividedBy(2);
  private static final long BOUND_SECONDS = 60;
  /** How long the kit lets a waiter react to a change that must not end its wait. */
  private static final long SETTLE_MILLIS = 150;
  /** How much earlier than its timeout a wait may return, for timers that count in whole milliseconds. */
  private static final Duration TIMER_SLACK = Duration.ofMillis(20);

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected ToolCallWaitContract(SessionStoreConformance kit) {
    super(kit);
  }

  @Override
  protected Set<Capability> requiredCapabilities() {
    return Set.of(Capability.TOOL_CALLS);
  }

  private String pending(String session) {
    String call = id("call");
    store.toolCalls().save(ToolCallWrite.of(call, session, "approve"));
    return call;
  }

  /** What a waiter returned, and when ({@link System#nanoTime()}). */
  record Woken(Optional<ToolCall> call, long atNanos) {
  }

  /** Starts a wait on another thread and returns once that thread is observed blocked (or after 2 s). */
  static CompletableFuture<Woken> waitOn(dev.sessionstore.SessionStore on, String session, String call) {
    Thread[] waiter = new Thread[1];
    CompletableFuture<Woken> result = new CompletableFuture<>();
    Thread thread = new Thread(() -> {
      try {
        Optional<ToolCall> seen = on.toolCalls().await(session, call, LONG_WAIT);
        result.complete(new Woken(seen, System.nanoTime()));
      } catch (RuntimeException e) {
        result.completeExceptionally(e);
      }
    }, "kit-tool-call-waiter");
    waiter[0] = thread;
    thread.setDaemon(true);
    thread.start();
    long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
    while (System.nanoTime() < giveUp && !result.isDone()
        && waiter[0].getState() != Thread.State.TIMED_WAITING && waiter[0].getState() != Thread.State.WAITING) {
      Thread.onSpinWait();
    }
    return result;
  }

  /**
   * What the waiter returned, asserting it returned within {@link #WAKE_BOUND} of {@code sinceNanos} (the moment the
   * event that should end the wait was caused), well before its own timeout.
   */
  static Optional<ToolCall> outcome(CompletableFuture<Woken> waiting, long sinceNanos, String what) throws Exception {
    Woken woken;
    try {
      woken = waiting.get(WAKE_BOUND.toNanos() - (System.nanoTime() - sinceNanos), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError(what + ": not woken within " + WAKE_BOUND + " (its timeout is " + LONG_WAIT + ")", e);
    }
    assertThat(Duration.ofNanos(woken.atNanos() - sinceNanos)).as("%s: time to wake (its timeout is %s)", what,
        LONG_WAIT).isLessThan(WAKE_BOUND);
    return woken.call();
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("await returns a resolved call at once, even with a zero timeout")
  void returnsAResolvedCallAtOnce() {
    String session = id("session");
    String call = pending(session);
    store.toolCalls().resolve(session, call, ToolCallStatus.COMPLETED, json("{\"ok\":true}"));

    Optional<ToolCall> seen = store.toolCalls().await(session, call, Duration.ZERO);

    assertThat(seen).as("await of a resolved call").isPresent();
    assertThat(seen.get().status()).isEqualTo(ToolCallStatus.COMPLETED);
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("await of a pending call times out empty, and so does await of an unknown call")
  void timesOutEmpty() {
    String session = id("session");
    String call = pending(session);

    assertThat(store.toolCalls().await(session, call, Duration.ofMillis(50))).as("await of a pending call").isEmpty();
    assertThat(store.toolCalls().await(session, "no-such-call", Duration.ZERO)).as("await of an unknown call")
        .isEmpty();
    assertThat(store.toolCalls().await(id("session"), call, Duration.ZERO)).as("the call id in another session")
        .isEmpty();
  }

  @Test
  @Tag("guarantee-10")
  @Tag("guarantee-19")
  @DisplayName("await for a call id that only another session resolved waits out its timeout and returns empty")
  void aResolutionInAnotherSessionIsNotTheAwaitedCall() {
    String resolvedThere = id("session");
    String call = pending(resolvedThere);
    store.toolCalls().resolve(resolvedThere, call, ToolCallStatus.COMPLETED, json("{\"there\":true}"));
    String waitedHere = id("session");
    store.toolCalls().save(ToolCallWrite.of(call, waitedHere, "approve"));
    Duration timeout = Duration.ofMillis(SETTLE_MILLIS);

    long startedAt = System.nanoTime();
    Optional<ToolCall> seenHere = store.toolCalls().await(waitedHere, call, timeout);
    Duration waitedHereFor = Duration.ofNanos(System.nanoTime() - startedAt);
    startedAt = System.nanoTime();
    Optional<ToolCall> seenInUnknown = store.toolCalls().await(id("session"), call, timeout);
    Duration waitedInUnknownFor = Duration.ofNanos(System.nanoTime() - startedAt);

    assertThat(seenHere).as("await in a session whose call of that id is pending, after another session's "
        + "resolution").isEmpty();
    assertThat(waitedHereFor).as("time await waited for the pending call (its timeout is %s)", timeout)
        .isGreaterThanOrEqualTo(timeout.minus(TIMER_SLACK));
    assertThat(seenInUnknown).as("await in a session without that call, after another session's resolution")
        .isEmpty();
    assertThat(waitedInUnknownFor).as("time await waited for a call its session does not hold yet (its timeout is "
        + "%s)", timeout).isGreaterThanOrEqualTo(timeout.minus(TIMER_SLACK));
  }

  @Test
  @Tag("guarantee-10")
  @Tag("guarantee-19")
  @DisplayName("A waiter is not ended by the resolution of the same call id in another session, and is by its own")
  void aWaiterIgnoresResolutionsInOtherSessions() throws Exception {
    String waitedHere = id("session");
    String call = pending(waitedHere);
    String elsewhere = id("session");
    store.toolCalls().save(ToolCallWrite.of(call, elsewhere, "approve"));
    CompletableFuture<Woken> waiting = waitOn(store, waitedHere, call);

    store.toolCalls().resolve(elsewhere, call, ToolCallStatus.FAILED, json("{\"elsewhere\":true}"));
    Thread.sleep(SETTLE_MILLIS);
    assertThat(waiting).as("the wait %d ms after the same call id was resolved in another session", SETTLE_MILLIS)
        .isNotDone();
    long resolvedAt = System.nanoTime();
    store.toolCalls().resolve(waitedHere, call, ToolCallStatus.COMPLETED, json("{\"here\":true}"));

    String what = "what the waiter got after its own session's call was resolved";
    Optional<ToolCall> seen = outcome(waiting, resolvedAt, what);
    assertThat(seen).as(what).isPresent();
    assertThat(seen.get().sessionId()).as(what).isEqualTo(waitedHere);
    assertThat(seen.get().result()).as(what).isEqualTo(json("{\"here\":true}"));
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("A waiting caller wakes on the resolution and gets the resolved call")
  void wakesOnResolution() throws Exception {
    String session = id("session");
    String call = pending(session);
    CompletableFuture<Woken> waiting = waitOn(store, session, call);

    long resolvedAt = System.nanoTime();
    store.toolCalls().resolve(session, call, ToolCallStatus.FAILED, json("{\"why\":\"denied\"}"));

    Optional<ToolCall> seen = outcome(waiting, resolvedAt, "what the waiter got after the resolution");
    assertThat(seen).as("what the waiter got after the resolution").isPresent();
    assertThat(seen.get().status()).isEqualTo(ToolCallStatus.FAILED);
    assertThat(seen.get().result()).isEqualTo(json("{\"why\":\"denied\"}"));
  }

  @Test
  @Tag("guarantee-10")
  @Tag("guarantee-16")
  @DisplayName("A wait on a call not registered yet wakes when one step registers and resolves it")
  void wakesWhenAStepRegistersAndResolvesTheCall() throws Exception {
    String session = id("session");
    store.events().append(session, event(id("e")));
    String call = id("call");
    CompletableFuture<Woken> waiting = waitOn(store, session, call);

    long committedAt = System.nanoTime();
    StepOutcome outcome = store.commit(Step.builder(session)
        .event(NewEvent.of("tool_result").withId(id("result")))
        .registerToolCall(ToolCallWrite.of(call, session, "lookup"))
        .resolve(call, ToolCallStatus.COMPLETED, json("{\"quick\":true}"))
        .build());

    assertThat(outcome).as("outcome of the step registering and resolving %s", call)
        .isInstanceOf(StepOutcome.Committed.class);
    String what = "what the waiter got after a step registered and resolved the call";
    Optional<ToolCall> seen = outcome(waiting, committedAt, what);
    assertThat(seen).as(what).isPresent();
    assertThat(seen.get().status()).isEqualTo(ToolCallStatus.COMPLETED);
    assertThat(seen.get().result()).isEqualTo(json("{\"quick\":true}"));
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("A waiting caller wakes when the store clock passes the call's deadline and gets it expired")
  void wakesOnExpiry() throws Exception {
    assumeDeclared(Capability.DEADLINES);
    String session = id("session");
    String call = id("call");
    store.toolCalls().save(ToolCallWrite.of(call, session, "approve").withDeadline(clock.instant().plusSeconds(60)));
    CompletableFuture<Woken> waiting = waitOn(store, session, call);

    long advancedAt = System.nanoTime();
    clock.advance(Duration.ofSeconds(60));

    Optional<ToolCall> seen = outcome(waiting, advancedAt, "what the waiter got after the deadline passed");
    assertThat(seen).as("what the waiter got after the deadline passed").isPresent();
    assertThat(seen.get().status()).isEqualTo(ToolCallStatus.EXPIRED);
  }

  @Test
  @Tag("guarantee-10")
  @Tag("guarantee-11")
  @DisplayName("A wait on a fork's copy of a pending call wakes when the copy's deadline passes, though the parent's "
      + "deadline was cancelled")
  void aWaitOnAForksCopyWakesOnItsOwnExpiry() throws Exception {
    assumeDeclared(Capability.DEADLINES);
    assumeDeclared(Capability.FORKS);
    String parent = id("session");
    String call = id("call");
    Instant deadline = clock.instant().plusSeconds(60);
    store.commit(Step.builder(parent).event(NewEvent.of("tool_use").withId("use-1"))
        .registerToolCall(ToolCallWrite.of(call, parent, "approve").withRequestEventId("use-1").withDeadline(deadline))
        .build());
    String fork = store.sessions().fork(parent, 1).id();
    assertThat(store.toolCalls().cancelDeadline(parent, call)).as("cancelling the parent's deadline").isTrue();
    CompletableFuture<Woken> waiting = waitOn(store, fork, call);

    long advancedAt = System.nanoTime();
    clock.set(deadline);

    String what = "what the waiter on the fork's copy got after the copy's deadline passed";
    Optional<ToolCall> seen = outcome(waiting, advancedAt, what);
    assertThat(seen).as(what).isPresent();
    assertThat(seen.get().status()).as(what).isEqualTo(ToolCallStatus.EXPIRED);
    assertThat(seen.get().sessionId()).as(what).isEqualTo(fork);
    assertThat(store.toolCalls().find(parent, call).map(ToolCall::status)).as("the parent's call, without a deadline")
        .contains(ToolCallStatus.PENDING);
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("Re-saving a pending call does not end a wait on it: the wait stays open until the call is resolved")
  void aReSavedCallKeepsItsWaiterWaiting() throws Exception {
    String session = id("session");
    String call = pending(session);
    CompletableFuture<Woken> waiting = waitOn(store, session, call);

    store.toolCalls().save(ToolCallWrite.of(call, session, "approve"));
    assertStillWaiting(waiting, "re-saving the call");

    assertEndsOnResolution(waiting, session, call);
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("Moving a pending call's deadline, or cancelling it, does not end a wait on the call: the wait stays"
      + " open until the call is resolved")
  void aMovedOrCancelledDeadlineKeepsItsWaiterWaiting() throws Exception {
    assumeDeclared(Capability.DEADLINES);
    String session = id("session");
    String call = id("call");
    store.toolCalls().save(ToolCallWrite.of(call, session, "approve").withDeadline(clock.instant().plusSeconds(60)));
    CompletableFuture<Woken> waiting = waitOn(store, session, call);

    assertThat(store.toolCalls().expireAt(session, call, clock.instant().plusSeconds(120)))
        .as("moving the deadline of %s", call).isTrue();
    assertStillWaiting(waiting, "moving the call's deadline");
    assertThat(store.toolCalls().cancelDeadline(session, call)).as("cancelling the deadline of %s", call).isTrue();
    assertStillWaiting(waiting, "cancelling the call's deadline");

    assertEndsOnResolution(waiting, session, call);
  }

  /** Asserts that {@code waiting} is still open {@link #SETTLE_MILLIS} after {@code change}. */
  private static void assertStillWaiting(CompletableFuture<Woken> waiting, String change) throws InterruptedException {
    Thread.sleep(SETTLE_MILLIS);
    assertThat(waiting).as("the wait on a pending call %d ms after %s (it returned %s)", SETTLE_MILLIS, change,
        waiting.isDone() ? waiting.join().call() : "nothing").isNotDone();
  }

  /** Resolves the awaited {@code call} and asserts that {@code waiting} ends with it. */
  private void assertEndsOnResolution(CompletableFuture<Woken> waiting, String session, String call)
      throws Exception {
    long resolvedAt = System.nanoTime();
    store.toolCalls().resolve(session, call, ToolCallStatus.COMPLETED, json("{\"at\":\"last\"}"));
    String what = "what the waiter got after the resolution";
    Optional<ToolCall> seen = outcome(waiting, resolvedAt, what);
    assertThat(seen).as(what).isPresent();
    assertThat(seen.get().status()).as(what).isEqualTo(ToolCallStatus.COMPLETED);
  }

  @Test
  @Tag("guarantee-10")
  @Tag("guarantee-14")
  @DisplayName("A wait on a call whose session is deleted keeps waiting and returns the call registered and resolved "
      + "again under its id")
  void aWaitOutlivesTheDeletionOfItsSession() throws Exception {
    String session = id("session");
    String call = pending(session);
    CompletableFuture<Woken> waiting = waitOn(store, session, call);

    assertThat(store.sessions().delete(session)).as("deleting the session of the awaited call").isTrue();
    Thread.sleep(SETTLE_MILLIS);
    assertThat(waiting).as("the wait %d ms after its session was deleted", SETTLE_MILLIS).isNotDone();
    store.toolCalls().save(ToolCallWrite.of(call, session, "approve"));
    long resolvedAt = System.nanoTime();
    store.toolCalls().resolve(session, call, ToolCallStatus.COMPLETED, json("{\"again\":true}"));

    String what = "what the waiter got after its session was deleted and the call resolved again";
    Optional<ToolCall> seen = outcome(waiting, resolvedAt, what);
    assertThat(seen).as(what).isPresent();
    assertThat(seen.get().result()).isEqualTo(json("{\"again\":true}"));
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("An interrupted wait returns empty at once and leaves the thread's interrupt flag set")
  void anInterruptedWaitReturnsEmpty() throws Exception {
    String session = id("session");
    String call = pending(session);
    CompletableFuture<Boolean> flagKept = new CompletableFuture<>();
    CompletableFuture<Optional<ToolCall>> seen = new CompletableFuture<>();
    Thread waiter = new Thread(() -> {
      try {
        seen.complete(store.toolCalls().await(session, call, LONG_WAIT));
        flagKept.complete(Thread.currentThread().isInterrupted());
      } catch (RuntimeException e) {
        seen.completeExceptionally(e);
      }
    }, "kit-interrupted-waiter");
    waiter.setDaemon(true);
    waiter.start();
    long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
    while (System.nanoTime() < giveUp && waiter.getState() != Thread.State.TIMED_WAITING
        && waiter.getState() != Thread.State.WAITING) {
      Thread.onSpinWait();
    }

    long interruptedAt = System.nanoTime();
    waiter.interrupt();

    assertThat(seen.get(BOUND_SECONDS, TimeUnit.SECONDS)).as("what an interrupted wait returned").isEmpty();
    assertThat(Duration.ofNanos(System.nanoTime() - interruptedAt)).as("time from the interrupt to the return")
        .isLessThan(WAKE_BOUND);
    assertThat(flagKept.get(BOUND_SECONDS, TimeUnit.SECONDS)).as("the waiting thread's interrupt flag").isTrue();
  }
}
