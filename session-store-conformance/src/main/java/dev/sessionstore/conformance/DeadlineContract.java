package dev.sessionstore.conformance;

import static dev.sessionstore.conformance.Lookups.present;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.Capability;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.Resolution;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.ToolCalls;
import dev.sessionstore.spi.Expiry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Tool-call deadlines held by the store (guarantee 10 of docs/guarantees.md): a pending call is due once the store
 * clock reaches its deadline ({@code now >= deadline}) and from then on every read sees it {@link
 * ToolCallStatus#EXPIRED} with {@link Expiry#result}; setting a deadline again replaces the old one; cancelling removes
 * it. Time is driven by the kit clock, never by sleeping, so a store must decide expiry from its clock at read time and
 * not only from a background timer. Requires {@link Capability#TOOL_CALLS} and {@link Capability#DEADLINES}.
 *
 * <p>If this fails, check that every read ({@code find}, {@code pending}, {@code resolve}) first settles calls whose
 * deadline is at or before the store clock's now (an expiry sweep that runs inside the same read, or a status
 * computed from the deadline); that {@code expireAt} overwrites the stored deadline rather than adding a second timer;
 * that a resolve clears the deadline; and that the expired result is exactly {@link Expiry#result} of the deadline.
 */
public abstract class DeadlineContract extends Contract {

  /** The session of the calls {@link #pendingCall()} registers. */
  private final String session = id("session");

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected DeadlineContract(SessionStoreConformance kit) {
    super(kit);
  }

  @Override
  protected Set<Capability> requiredCapabilities() {
    return Set.of(Capability.TOOL_CALLS, Capability.DEADLINES);
  }

  private ToolCalls calls() {
    return store.toolCalls();
  }

  private String pendingCall(String sessionId) {
    String call = id("call");
    calls().save(ToolCallWrite.of(call, sessionId, "ask_human"));
    return call;
  }

  /** A new pending call of {@link #session}. */
  private String pendingCall() {
    return pendingCall(session);
  }

  private ToolCall stored(String session, String callId) {
    return present(calls().find(session, callId), "tool call %s", callId);
  }

  private void assertExpired(ToolCall call, Instant deadline) {
    assertThat(call.status()).as("status of %s after its deadline %s passed", call.id(), deadline)
        .isEqualTo(ToolCallStatus.EXPIRED);
    assertThat(call.result()).as("result of expired call %s", call.id()).isEqualTo(Expiry.result(deadline));
  }

  private static List<String> ids(List<ToolCall> calls) {
    return calls.stream().map(ToolCall::id).collect(Collectors.toList());
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("expireAfter on a pending call returns true and the call shows the deadline now + timeout")
  void expireAfterSetsAVisibleDeadline() {
    String call = pendingCall();

    assertThat(calls().expireAfter(session, call, Duration.ofMinutes(5))).as("expireAfter on a pending call").isTrue();

    ToolCall stored = stored(session, call);
    assertThat(stored.deadline()).as("deadline of %s", call).isEqualTo(TestClock.START.plus(Duration.ofMinutes(5)));
    assertThat(stored.status()).isEqualTo(ToolCallStatus.PENDING);
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("expireAt on a pending call returns true, and find and pending show the deadline on the pending call")
  void expireAtSetsAVisibleDeadline() {
    String session = id("session");
    String call = pendingCall(session);
    Instant deadline = TestClock.START.plus(Duration.ofHours(2));

    assertThat(calls().expireAt(session, call, deadline)).as("expireAt on a pending call").isTrue();

    assertThat(stored(session, call).deadline()).as("deadline shown by find").isEqualTo(deadline);
    assertThat(calls().pending(session)).singleElement()
        .satisfies(listed -> assertThat(listed.deadline()).as("deadline shown by pending").isEqualTo(deadline));
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("Once the clock passes the deadline, find shows the call expired with the deadline_exceeded result")
  void aDueCallIsExpiredOnFind() {
    String call = pendingCall();
    calls().expireAfter(session, call, Duration.ofSeconds(30));
    Instant deadline = clock.instant().plusSeconds(30);

    clock.advance(Duration.ofSeconds(31));

    ToolCall expired = stored(session, call);
    assertExpired(expired, deadline);
    assertThat(expired.result().stringMember("error")).contains(Expiry.DEADLINE_EXCEEDED);
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("Once the deadline has passed, pending leaves the call out even before anything else reads it")
  void aDueCallIsNotPending() {
    String session = id("session");
    String due = pendingCall(session);
    String other = pendingCall(session);
    calls().expireAfter(session, due, Duration.ofSeconds(30));
    calls().expireAfter(session, other, Duration.ofMinutes(30));

    clock.advance(Duration.ofMinutes(1));

    assertThat(ids(calls().pending(session))).as("pending calls after one deadline passed").containsExactly(other);
    assertExpired(stored(session, due), TestClock.START.plusSeconds(30));
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("Once the deadline has passed, a resolve is stale and its current state is the expired call")
  void resolvingADueCallIsStale() {
    String call = pendingCall();
    calls().expireAfter(session, call, Duration.ofSeconds(30));
    Instant deadline = clock.instant().plusSeconds(30);
    clock.advance(Duration.ofMinutes(1));

    Resolution late = calls().resolve(session, call, ToolCallStatus.COMPLETED, json("{\"late\":true}"));

    assertThat(late.won()).as("a resolve after the deadline passed").isFalse();
    assertThat(late).isInstanceOf(Resolution.Stale.class);
    assertThat(((Resolution.Stale) late).current()).as("current state in the stale outcome")
        .hasValueSatisfying(current -> assertExpired(current, deadline));
    assertExpired(stored(session, call), deadline);
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("A call is due at exactly its deadline instant (now >= deadline), not one tick later")
  void aCallIsDueAtExactlyItsDeadline() {
    String call = pendingCall();
    Instant deadline = clock.instant().plusSeconds(10);
    calls().expireAt(session, call, deadline);

    clock.advance(Duration.ofSeconds(10).minusNanos(1000));
    assertThat(stored(session, call).status()).as("status one microsecond before the deadline")
        .isEqualTo(ToolCallStatus.PENDING);

    clock.set(deadline);
    assertExpired(stored(session, call), deadline);
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("Before its deadline a call stays pending and resolvable, and the resolve clears the deadline for good")
  void aCallResolvedBeforeItsDeadlineNeverExpires() {
    String session = id("session");
    String call = pendingCall(session);
    calls().expireAfter(session, call, Duration.ofSeconds(60));
    clock.advance(Duration.ofSeconds(59));

    assertThat(stored(session, call).status()).as("status before the deadline").isEqualTo(ToolCallStatus.PENDING);
    assertThat(ids(calls().pending(session))).as("pending before the deadline").containsExactly(call);
    Resolution resolution = calls().resolve(session, call, ToolCallStatus.COMPLETED, json("{\"in\":\"time\"}"));
    assertThat(resolution.won()).as("a resolve before the deadline").isTrue();
    assertThat(((Resolution.Resolved) resolution).call().deadline()).as("deadline after resolving").isNull();

    clock.advance(Duration.ofHours(1));

    ToolCall settled = stored(session, call);
    assertThat(settled.status()).as("status long after the old deadline").isEqualTo(ToolCallStatus.COMPLETED);
    assertThat(settled.result()).isEqualTo(json("{\"in\":\"time\"}"));
    assertThat(settled.deadline()).isNull();
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("Setting a later deadline replaces the earlier one: passing the old deadline does not expire the call")
  void reschedulingLaterReplacesTheOldDeadline() {
    String call = pendingCall();
    calls().expireAfter(session, call, Duration.ofSeconds(10));
    assertThat(calls().expireAfter(session, call, Duration.ofSeconds(60))).as("rescheduling a pending call").isTrue();
    Instant newDeadline = TestClock.START.plusSeconds(60);

    clock.advance(Duration.ofSeconds(30));
    ToolCall midway = stored(session, call);
    assertThat(midway.status()).as("status after the replaced deadline passed").isEqualTo(ToolCallStatus.PENDING);
    assertThat(midway.deadline()).isEqualTo(newDeadline);

    clock.advance(Duration.ofSeconds(30));
    assertExpired(stored(session, call), newDeadline);
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("Setting an earlier deadline replaces the later one: the call expires at the new, earlier deadline")
  void reschedulingEarlierReplacesTheOldDeadline() {
    String call = pendingCall();
    calls().expireAt(session, call, TestClock.START.plus(Duration.ofHours(1)));
    Instant earlier = TestClock.START.plusSeconds(5);
    calls().expireAt(session, call, earlier);

    clock.advance(Duration.ofSeconds(6));

    assertExpired(stored(session, call), earlier);
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("cancelDeadline removes a pending call's deadline: it returns true and the call never expires")
  void cancelDeadlineRemovesIt() {
    String session = id("session");
    String call = pendingCall(session);
    calls().expireAfter(session, call, Duration.ofSeconds(10));

    assertThat(calls().cancelDeadline(session, call)).as("cancelling a set deadline").isTrue();
    assertThat(stored(session, call).deadline()).as("deadline after cancelling").isNull();

    clock.advance(Duration.ofHours(1));
    assertThat(stored(session, call).status()).as("status long after the cancelled deadline").isEqualTo(ToolCallStatus.PENDING);
    assertThat(ids(calls().pending(session))).containsExactly(call);
    assertThat(calls().resolve(session, call, ToolCallStatus.COMPLETED, null).won()).isTrue();
  }

  @Test
  @DisplayName("cancelDeadline returns false the second time, without a deadline, for an unknown call or session")
  void cancelDeadlineReportsWhetherItRemovedOne() {
    String call = pendingCall();
    calls().expireAfter(session, call, Duration.ofSeconds(10));
    calls().cancelDeadline(session, call);

    assertThat(calls().cancelDeadline(session, call)).as("a second cancel").isFalse();
    assertThat(calls().cancelDeadline(session, pendingCall())).as("cancelling a call that has no deadline").isFalse();
    assertThat(calls().cancelDeadline(session, "no-such-call")).as("cancelling an unknown call").isFalse();
    assertThat(calls().cancelDeadline(id("no-such-session"), call)).as("cancelling in an unknown session").isFalse();
  }

  @Test
  @DisplayName("cancelDeadline on a resolved call returns false and changes nothing")
  void cancelDeadlineOfAResolvedCall() {
    String call = pendingCall();
    calls().expireAfter(session, call, Duration.ofSeconds(10));
    calls().resolve(session, call, ToolCallStatus.FAILED, json("{\"error\":\"boom\"}"));
    ToolCall resolved = stored(session, call);

    assertThat(calls().cancelDeadline(session, call)).as("cancelling the deadline of a resolved call").isFalse();
    assertThat(stored(session, call)).isEqualTo(resolved);
  }

  @Test
  @DisplayName("cancelDeadline on a call its deadline expired returns false and leaves it expired")
  void cancelDeadlineOfAnExpiredCall() {
    String call = pendingCall();
    calls().expireAfter(session, call, Duration.ofSeconds(10));
    clock.advance(Duration.ofSeconds(11));

    assertThat(calls().cancelDeadline(session, call)).as("cancelling the deadline of an expired call").isFalse();
    assertThat(stored(session, call).status()).as("status after the cancel").isEqualTo(ToolCallStatus.EXPIRED);
  }

  @Test
  @DisplayName("Setting a deadline on an unknown call is NotFoundException, with expireAt and expireAfter alike")
  void deadlineOnAnUnknownCallIsNotFound() {
    pendingCall();

    assertThatThrownBy(() -> calls().expireAt(session, "no-such-call", clock.instant().plusSeconds(5)))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> calls().expireAfter(session, "no-such-call", Duration.ofSeconds(5)))
        .isInstanceOf(NotFoundException.class);
    assertThat(calls().find(session, "no-such-call")).isEmpty();
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("Setting a deadline on a resolved call returns false and changes nothing, even after that instant")
  void deadlineOnAResolvedCallChangesNothing() {
    String call = pendingCall();
    calls().resolve(session, call, ToolCallStatus.COMPLETED, json("{\"done\":1}"));
    ToolCall resolved = stored(session, call);

    assertThat(calls().expireAfter(session, call, Duration.ofSeconds(5))).as("expireAfter on a resolved call").isFalse();
    assertThat(calls().expireAt(session, call, clock.instant().plusSeconds(5))).as("expireAt on a resolved call").isFalse();
    clock.advance(Duration.ofSeconds(10));

    assertThat(stored(session, call)).as("the resolved call after deadlines were refused").isEqualTo(resolved);
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("Setting a deadline on an expired call returns false and keeps the original expiry")
  void deadlineOnAnExpiredCallChangesNothing() {
    String call = pendingCall();
    Instant first = clock.instant().plusSeconds(5);
    calls().expireAt(session, call, first);
    clock.advance(Duration.ofSeconds(10));

    assertThat(calls().expireAt(session, call, clock.instant().plusSeconds(60))).as("expireAt on an expired call").isFalse();
    assertThat(calls().cancelDeadline(session, call)).as("cancelDeadline on an expired call").isFalse();

    assertExpired(stored(session, call), first);
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("A deadline already in the past expires the call at the very next read")
  void aDeadlineInThePastExpiresAtTheNextRead() {
    String session = id("session");
    String call = pendingCall(session);
    clock.advance(Duration.ofMinutes(10));
    Instant past = clock.instant().minus(Duration.ofMinutes(1));

    assertThat(calls().expireAt(session, call, past)).as("expireAt in the past on a pending call").isTrue();

    assertThat(calls().pending(session)).as("pending right after a past deadline").isEmpty();
    assertExpired(stored(session, call), past);
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("expireAfter with a zero timeout makes the call due immediately")
  void aZeroTimeoutIsDueImmediately() {
    String call = pendingCall();

    assertThat(calls().expireAfter(session, call, Duration.ZERO)).isTrue();

    assertExpired(stored(session, call), clock.instant());
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("A negative or null timeout and a null deadline are rejected and set no deadline")
  void invalidDeadlinesAreRejected() {
    String call = pendingCall();

    assertThatThrownBy(() -> calls().expireAfter(session, call, Duration.ofSeconds(-1)))
        .as("negative timeout").isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> calls().expireAfter(session, call, null))
        .as("null timeout").isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> calls().expireAt(session, call, null))
        .as("null deadline").isInstanceOf(InvalidArgumentException.class);

    ToolCall stored = stored(session, call);
    assertThat(stored.deadline()).as("deadline after rejected requests").isNull();
    assertThat(stored.status()).isEqualTo(ToolCallStatus.PENDING);
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("Saving a call again keeps its deadline; saving an expired call keeps it expired")
  void savingAgainKeepsTheDeadlineAndTheExpiry() {
    String session = id("session");
    String call = pendingCall(session);
    Instant deadline = clock.instant().plusSeconds(30);
    calls().expireAt(session, call, deadline);

    ToolCall resaved = calls().save(new ToolCallWrite(call, session, null, null, "renamed", json("{\"v\":2}"), null));
    assertThat(resaved.deadline()).as("deadline after re-saving a pending call").isEqualTo(deadline);

    clock.advance(Duration.ofMinutes(1));
    calls().save(new ToolCallWrite(call, session, null, null, "renamed", json("{\"v\":3}"), null));

    assertExpired(stored(session, call), deadline);
    assertThat(calls().pending(session)).as("pending after re-saving an expired call").isEmpty();
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("Deadlines are per call: one call expiring leaves the others of the session pending")
  void deadlinesArePerCall() {
    String session = id("session");
    String soon = pendingCall(session);
    String later = pendingCall(session);
    String none = pendingCall(session);
    calls().expireAfter(session, soon, Duration.ofSeconds(10));
    calls().expireAfter(session, later, Duration.ofSeconds(100));

    clock.advance(Duration.ofSeconds(50));

    assertThat(stored(session, soon).status()).isEqualTo(ToolCallStatus.EXPIRED);
    assertThat(stored(session, later).status()).isEqualTo(ToolCallStatus.PENDING);
    assertThat(stored(session, none).status()).isEqualTo(ToolCallStatus.PENDING);
    assertThat(ids(calls().pending(session))).containsExactly(later, none);
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("An expired call stays expired: later reads return it unchanged, expiry time included")
  void expiryIsFinal() {
    String call = pendingCall();
    Instant deadline = clock.instant().plusSeconds(1);
    calls().expireAt(session, call, deadline);
    clock.advance(Duration.ofSeconds(2));
    ToolCall first = stored(session, call);

    clock.advance(Duration.ofDays(1));
    calls().resolve(session, call, ToolCallStatus.COMPLETED, null);

    assertExpired(stored(session, call), deadline);
    assertThat(stored(session, call)).as("the expired call read a day later, its expiry stored once").isEqualTo(first);
  }
}
