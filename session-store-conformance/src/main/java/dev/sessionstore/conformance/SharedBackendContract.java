package dev.sessionstore.conformance;

import static dev.sessionstore.conformance.Events.range;
import static dev.sessionstore.conformance.Events.readAll;
import static dev.sessionstore.conformance.Events.seqs;
import static dev.sessionstore.conformance.Lookups.present;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sessionstore.Capability;
import dev.sessionstore.DuplicateEventException;
import dev.sessionstore.Event;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.Resolution;
import dev.sessionstore.Run;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.SeqConflictException;
import dev.sessionstore.Session;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Step;
import dev.sessionstore.StepOutcome;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.spi.Expiry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Two instances on one backend (guarantees 1, 3, 5, 6, 8 and 10 of docs/guarantees.md "under any number of concurrent
 * writers, threads or processes"): the test's store and a peer from {@link SessionStoreConformance#newPeerStore}, built
 * as another process would build it, on the same {@link TestClock}. Three kinds of tests, each deciding on its own
 * whether it runs:
 * <ul>
 *   <li><b>Any shared backend</b>: each instance reads the other's writes, replays across instances are idempotent,
 *       appends and expected-seq races split across instances stay gapless with one winner, and so do concurrent
 *       resolvers of one tool call (those also need {@link Capability#TOOL_CALLS}). These run whenever the adapter
 *       returns a peer; without one they are skipped, unless the store declares a capability that claims other
 *       processes (below), which makes them fail: a store that claims to span processes must show it.</li>
 *   <li><b>{@link Capability#CROSS_PROCESS_WAKEUP}</b>: a waiting read on one instance wakes on appends, batches and
 *       steps committed through the other within 2 s, although it would wait 10 s, and keeps waiting through the
 *       other's appends to other sessions.</li>
 *   <li><b>{@link Capability#DURABLE_DEADLINES}</b>: a deadline set through one instance, which is then closed,
 *       expires on time for the other, which can no longer resolve the call; a cancel, a reschedule and a resolve
 *       made through one instance hold in the other.</li>
 * </ul>
 * A test of a capability the store does not declare is skipped, naming the capability; a declared capability with no
 * peer ({@code newPeerStore} returns {@code null}) fails, telling the adapter author to implement it.
 *
 * <p>Waiting reads use real time. The wake-up bound of 2 s must stay below the adapter's fallback poll, if it has
 * one, or waiting reads that re-read every few seconds would pass without any wake-up crossing instances: build both
 * instances with the production poll interval, or any above 3 s. Deadlines use the shared clock only.
 *
 * <p>If this fails, check: that the peer really is a second instance on the same backend and namespace (schema,
 * table prefix, file) and not an isolated store; that an instance keeps no state the other cannot see (a cache of
 * sessions, events, heads or tool calls, a seq counter, an in-process lock standing in for a database lock); that
 * every append path (single, batch, step) publishes a wake-up other instances receive (for PostgreSQL a
 * {@code NOTIFY} sent in or after the committing transaction, received by a {@code LISTEN} started before the
 * waiter's first read), not only an in-process signal; and that deadlines are stored in the backend and judged
 * against the clock on every read, resolve and sweep, never held by a timer of the instance that set them.
 */
public abstract class SharedBackendContract extends Contract {

  /** How long a waiting read would wait: reaching anywhere near it means it did not wake. */
  private static final long WAIT_SECONDS = 10;
  /** How soon after the append through the other instance a waiting read must have returned. */
  private static final long WAKE_MILLIS = 2000;
  /** How long the kit lets a waiter settle into its wait before appending. */
  private static final long SETTLE_MILLIS = 200;
  private static final Duration WAIT = Duration.ofSeconds(WAIT_SECONDS);
  private static final Duration BOUND = Duration.ofSeconds(60);
  /** The capabilities that claim several processes share the backend; each needs a peer to be verified. */
  private static final Set<Capability> CROSS_PROCESS =
      Set.of(Capability.CROSS_PROCESS_WAKEUP, Capability.DURABLE_DEADLINES);

  /** The peer this test asked for, closed after it. */
  private SessionStore openedPeer;
  private boolean peerAsked;
  private ExecutorService threads;

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected SharedBackendContract(SessionStoreConformance kit) {
    super(kit);
  }

  @BeforeEach
  final void startThreads() {
    threads = Executors.newCachedThreadPool(runnable -> {
      Thread thread = new Thread(runnable, "kit-waiter");
      thread.setDaemon(true);
      return thread;
    });
  }

  /** Stops waiters left by a failed test, then closes the peer; the first store is closed by {@link Contract}. */
  @AfterEach
  final void closePeer() {
    if (threads != null) {
      threads.shutdownNow();
    }
    if (openedPeer != null) {
      openedPeer.close();
    }
  }

  // ---------------------------------------------------------------- who runs: the peer, skips and failures

  /** The adapter's peer of {@link #store}, asked for once per test; null when it has none. */
  private SessionStore openPeer() {
    if (!peerAsked) {
      peerAsked = true;
      openedPeer = peerStore();
      assertThat(openedPeer).as("newPeerStore must return a second instance, not the store it was given")
          .isNotSameAs(store);
    }
    return openedPeer;
  }

  /**
   * The peer for a test of {@code claimed}: skipped unless the store declares it and {@code alsoNeeded}; failed when
   * it does but the adapter has no peer, or the peer does not declare it too.
   */
  private SessionStore peerFor(Capability claimed, Capability... alsoNeeded) {
    assumeDeclared(alsoNeeded);
    assumeDeclared(claimed);
    SessionStore second = openPeer();
    if (second == null) {
      fail(noPeerFor(Set.of(claimed)));
    }
    assertThat(second.supports(claimed)).as("the peer store declares %s.%s like the first",
        Capability.class.getSimpleName(), claimed).isTrue();
    return second;
  }

  /**
   * The peer for a test that holds on any shared backend: skipped when the adapter has no peer and the store claims
   * nothing about other processes; failed when it has no peer but claims {@link #CROSS_PROCESS} capabilities.
   */
  private SessionStore anyPeer() {
    SessionStore second = openPeer();
    if (second == null) {
      Set<Capability> claims = CROSS_PROCESS.stream().filter(store::supports).collect(Collectors.toSet());
      if (!claims.isEmpty()) {
        fail(noPeerFor(claims));
      }
      assumeTrue(false, "the adapter has no second instance on a shared backend (newPeerStore returns null)");
    }
    return second;
  }

  private static String noPeerFor(Set<Capability> claims) {
    return "the store declares " + claims.stream().sorted().map(c -> Capability.class.getSimpleName() + "." + c)
        .collect(Collectors.joining(" and ")) + " but newPeerStore returned null, so the claim cannot be verified:"
        + " implement SessionStoreConformance.newPeerStore to return a second, independent instance on the same"
        + " backend and namespace as the store it is given, as another process would build it";
  }

  // ---------------------------------------------------------------- any shared backend

  @Test
  @Tag("guarantee-6")
  @DisplayName("Each instance reads what the other wrote: sessions, metadata merges, events and runs")
  void eachInstanceReadsTheOthersWrites() {
    SessionStore peer = anyPeer();
    String session = id("s");

    store.sessions().save(SessionWrite.of(session).withAgentId("agent-a").withMetadata("from", "first"));
    Session seen = present(peer.sessions().find(session),
        "session %s saved through the first instance, looked up through the second", session);
    assertThat(seen.agentId()).as("agent id read through the second instance").isEqualTo("agent-a");
    peer.sessions().save(SessionWrite.of(session).withMetadata("also", "second"));
    assertThat(present(store.sessions().find(session), "session %s read back through the first instance", session)
        .metadata()).as("metadata merged through both instances, read through the first")
        .containsOnly(entry("from", "first"), entry("also", "second"));

    Event first = store.events().append(session, event("e1"));
    assertThat(peer.events().lastSeq(session)).as("lastSeq through the second instance after an append through"
        + " the first").isEqualTo(1);
    assertThat(peer.events().find(session, "e1")).as("event e1 appended through the first instance, found through"
        + " the second").contains(first);
    Event second = peer.events().append(session, event("e2"));
    assertThat(second.seq()).as("seq of an append through the second instance after one through the first")
        .isEqualTo(2);
    assertThat(readAll(store.events(), session)).as("log read through the first instance")
        .containsExactly(first, second);

    Run run = store.runs().save(RunWrite.of(id("run"), session).withStatus(RunStatus.RUNNING));
    assertThat(peer.runs().active(session)).as("active run saved through the first instance, read through the"
        + " second").contains(run);
    Run done = peer.runs().save(RunWrite.of(run.id(), session).withStatus(RunStatus.COMPLETED));
    assertThat(store.runs().find(session, run.id())).as("run completed through the second instance, read through the first")
        .contains(done);
    assertThat(store.runs().active(session)).as("active run through the first instance after the second completed"
        + " it").isEmpty();
  }

  @Test
  @Tag("guarantee-3")
  @Tag("guarantee-5")
  @DisplayName("Replays and expected seqs hold across instances: the same event through the other instance is the"
      + " stored one")
  void idempotencyAndExpectedSeqHoldAcrossInstances() {
    SessionStore peer = anyPeer();
    String session = id("s");

    Event stored = store.events().append(session, event("once"));
    assertThat(peer.events().append(session, event("once"))).as("replay through the second instance of an event"
        + " stored through the first").isEqualTo(stored);
    List<Event> mixed = peer.events().appendAll(session, List.of(event("once"), event("new")));
    assertThat(seqs(mixed)).as("seqs of a batch through the second instance replaying one event of the first")
        .containsExactly(1L, 2L);
    assertThatThrownBy(() -> peer.events().append(session,
        NewEvent.of("message", json("{\"other\":true}")).withId("once")))
        .as("different content under an id stored through the other instance")
        .isInstanceOf(DuplicateEventException.class);
    SeqConflictException conflict = catchThrowableOfType(SeqConflictException.class,
        () -> store.events().append(session, event("late"), 1));
    assertThat(conflict).as("append through the first instance expecting seq 1 after the second appended seq 2")
        .isNotNull();
    assertThat(conflict.actualSeq()).as("actual seq reported across instances").isEqualTo(2);
    assertThat(seqs(readAll(store.events(), session))).as("seqs read through the first instance")
        .containsExactly(1L, 2L);
  }

  @Test
  @Tag("guarantee-1")
  @DisplayName("16 threads, 8 per instance, appending 100 events each to one session get seqs 1..1600 with no gap")
  void appendsThroughBothInstancesAreGapless() {
    SessionStore peer = anyPeer();
    List<SessionStore> instances = List.of(store, peer);
    String session = id("s");
    int threads = 16;
    int perThread = 100;

    List<List<Event>> returned = Race.run(threads, BOUND, t -> {
      SessionStore through = instances.get(t % 2);
      List<Event> mine = new ArrayList<>(perThread);
      for (int i = 0; i < perThread; i++) {
        mine.add(through.events().append(session, event("t" + t + "-" + i)));
      }
      return mine;
    });

    int total = threads * perThread;
    for (int t = 0; t < threads; t++) {
      assertThat(seqs(returned.get(t))).as("seqs returned to thread %d (instance %d), in its append order", t, t % 2)
          .isSorted();
    }
    assertThat(returned.stream().flatMap(List::stream).map(Event::seq).sorted().collect(Collectors.toList()))
        .as("seqs returned to the threads of both instances").containsExactlyElementsOf(range(1, total));
    List<Event> viaFirst = readAll(store.events(), session);
    assertThat(seqs(viaFirst)).as("seqs read through the first instance").containsExactlyElementsOf(range(1, total));
    assertThat(viaFirst.stream().map(Event::id).distinct().count()).as("distinct event ids read back")
        .isEqualTo(total);
    assertThat(readAll(peer.events(), session)).as("log read through the second instance against the first")
        .isEqualTo(viaFirst);
    assertThat(peer.events().lastSeq(session)).as("lastSeq through the second instance").isEqualTo(total);
  }

  @Test
  @Tag("guarantee-5")
  @DisplayName("Racing appends through both instances that expect the same seq: exactly one wins each round")
  void expectedSeqRacesAcrossInstancesHaveOneWinner() {
    SessionStore peer = anyPeer();
    List<SessionStore> instances = List.of(store, peer);
    String session = id("s");
    int threads = 8;
    int rounds = 10;

    for (int round = 0; round < rounds; round++) {
      long expected = round;
      List<Object> outcomes = Race.run(threads, BOUND, t -> {
        try {
          return instances.get(t % 2).events().append(session, event("r" + expected + "-t" + t), expected);
        } catch (SeqConflictException conflict) {
          return conflict;
        }
      });

      assertThat(outcomes).as("winners of round %d (expected seq %d) across both instances", round, expected)
          .filteredOn(Event.class::isInstance).hasSize(1);
      outcomes.stream().filter(SeqConflictException.class::isInstance).map(SeqConflictException.class::cast)
          .forEach(conflict -> assertThat(conflict.actualSeq())
              .as("actual seq reported to a loser expecting %d", expected).isEqualTo(expected + 1));
    }
    assertThat(seqs(readAll(peer.events(), session))).as("seqs read through the second instance")
        .containsExactlyElementsOf(range(1, rounds));
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("32 resolvers of one tool call, 16 per instance: exactly one wins and both instances show its result")
  void concurrentResolversAcrossInstancesHaveOneWinner() {
    assumeDeclared(Capability.TOOL_CALLS);
    SessionStore peer = anyPeer();
    List<SessionStore> instances = List.of(store, peer);
    String session = id("session");
    int resolvers = 32;

    for (int round = 0; round < 4; round++) {
      String call = id("raced-call");
      instances.get(round % 2).toolCalls().save(ToolCallWrite.of(call, session, "ask_human"));

      List<Resolution> outcomes = Race.run(resolvers, BOUND, r -> instances.get(r % 2).toolCalls()
          .resolve(session, call, ToolCallStatus.COMPLETED, json("{\"resolver\":" + r + "}")));

      List<Resolution.Resolved> winners = outcomes.stream().filter(Resolution.Resolved.class::isInstance)
          .map(Resolution.Resolved.class::cast).collect(Collectors.toList());
      assertThat(winners).as("winners among %d resolvers of %s split across both instances", resolvers, call)
          .hasSize(1);
      Json winnerResult = winners.get(0).call().result();
      for (SessionStore instance : instances) {
        ToolCall settled = present(instance.toolCalls().find(session, call), "tool call %s", call);
        assertThat(settled.status()).as("status of %s through instance %d", call, instances.indexOf(instance))
            .isEqualTo(ToolCallStatus.COMPLETED);
        assertThat(settled.result()).as("stored result of %s through instance %d against the winner's", call,
            instances.indexOf(instance)).isEqualTo(winnerResult);
      }
    }
  }

  // ---------------------------------------------------------------- cross-process wake-ups

  /** A waiting read running on its own thread. */
  private final class Waiter {

    private final Future<EventPage> page;
    private final String what;

    Waiter(SessionStore on, String sessionId, EventQuery query, String what) {
      this.page = threads.submit(() -> on.events().await(sessionId, query, WAIT));
      this.what = what;
    }

    boolean isDone() {
      return page.isDone();
    }

    /** The page, which must come within {@link #WAKE_MILLIS} of {@code appendedAt} ({@link System#nanoTime}). */
    EventPage wokenBy(long appendedAt) {
      long left = appendedAt + TimeUnit.MILLISECONDS.toNanos(WAKE_MILLIS) - System.nanoTime();
      try {
        return page.get(Math.max(0, left), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        throw new AssertionError(what + ": did not wake within " + WAKE_MILLIS + " ms of the append through the"
            + " other instance (its timeout is " + WAIT_SECONDS + " s); does the append reach other instances"
            + " only by their fallback poll, or not at all?");
      } catch (ExecutionException e) {
        throw new AssertionError(what + ": await failed: " + e.getCause(), e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
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
  @DisplayName("A waiting read on one instance wakes on an append through the other within 2 s, long before its 10 s"
      + " timeout")
  void wakesOnAnAppendThroughThePeer() {
    SessionStore peer = peerFor(Capability.CROSS_PROCESS_WAKEUP, Capability.WAITING_READS);
    String session = id("s");
    peer.events().append(session, event("old"));
    Waiter waiter = new Waiter(store, session, EventQuery.all().after(1), "waiting on the first instance for seq > 1");
    pause(SETTLE_MILLIS);
    assertThat(waiter.isDone()).as("waiting read on the first instance returned before anything new was appended")
        .isFalse();

    long appendedAt = System.nanoTime();
    Event appended = peer.events().append(session, event("new"));

    assertThat(waiter.wokenBy(appendedAt).items()).as("events the waiting read on the first instance returned")
        .containsExactly(appended);
  }

  @Test
  @Tag("guarantee-8")
  @DisplayName("Waiting reads on one instance wake on a batch append and on a step commit through the other")
  void wakesOnBatchesAndStepsThroughThePeer() {
    SessionStore peer = peerFor(Capability.CROSS_PROCESS_WAKEUP, Capability.WAITING_READS);
    String batched = id("s");
    String stepped = id("s");
    Waiter batchWaiter = new Waiter(store, batched, EventQuery.all(), "waiting on the first instance for a batch");
    Waiter stepWaiter = new Waiter(store, stepped, EventQuery.all(), "waiting on the first instance for a step");
    pause(SETTLE_MILLIS);

    long batchedAt = System.nanoTime();
    List<Event> batch = peer.events().appendAll(batched, List.of(event("b1"), event("b2")));
    assertThat(batchWaiter.wokenBy(batchedAt).items()).as("events returned to the reader waiting for the batch")
        .containsExactlyElementsOf(batch);
    assertThat(stepWaiter.isDone()).as("the reader of %s returned on a batch appended to %s", stepped, batched)
        .isFalse();

    long steppedAt = System.nanoTime();
    StepOutcome step = peer.commit(Step.builder(stepped).session(SessionWrite.of(stepped)).event(event("f1")).build());
    assertThat(stepWaiter.wokenBy(steppedAt).items()).as("events returned to the reader waiting for the step")
        .containsExactlyElementsOf(((StepOutcome.Committed) step).result().events());
  }

  @Test
  @Tag("guarantee-8")
  @DisplayName("Appends through the other instance to other sessions do not end a wait; its matching append does")
  void ignoresThePeersAppendsToOtherSessions() {
    SessionStore peer = peerFor(Capability.CROSS_PROCESS_WAKEUP, Capability.WAITING_READS);
    String session = id("s");
    String other = id("other");
    Waiter waiter = new Waiter(store, session, EventQuery.all(), "waiting on the first instance for " + session);
    pause(SETTLE_MILLIS);

    peer.events().append(other, event("elsewhere-1"));
    peer.events().appendAll(other, List.of(event("elsewhere-2"), event("elsewhere-3")));
    pause(SETTLE_MILLIS);
    assertThat(waiter.isDone()).as("waiting read on the first instance returned after appends through the second"
        + " to another session").isFalse();

    long appendedAt = System.nanoTime();
    Event mine = peer.events().append(session, event("mine"));
    assertThat(waiter.wokenBy(appendedAt).items()).as("events the waiting read on the first instance returned")
        .containsExactly(mine);
  }

  @Test
  @Tag("guarantee-8")
  @DisplayName("One append wakes the readers waiting on both instances, the other instance's included")
  void oneAppendWakesWaitersOnBothInstances() {
    SessionStore peer = peerFor(Capability.CROSS_PROCESS_WAKEUP, Capability.WAITING_READS);
    String session = id("s");
    List<Waiter> waiters = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      SessionStore on = i % 2 == 0 ? peer : store;
      waiters.add(new Waiter(on, session, EventQuery.all(),
          "waiter " + i + " on the " + (on == peer ? "second" : "first") + " instance"));
    }
    pause(SETTLE_MILLIS);

    long appendedAt = System.nanoTime();
    Event appended = store.events().append(session, event("wake-all"));

    for (int i = 0; i < waiters.size(); i++) {
      assertThat(waiters.get(i).wokenBy(appendedAt).items()).as("events returned to waiter %d", i)
          .containsExactly(appended);
    }
  }

  // ---------------------------------------------------------------- durable deadlines

  private SessionStore deadlinePeer() {
    return peerFor(Capability.DURABLE_DEADLINES, Capability.TOOL_CALLS, Capability.DEADLINES);
  }

  private String pendingCall(SessionStore through, String sessionId) {
    String call = id("call");
    through.toolCalls().save(ToolCallWrite.of(call, sessionId, "ask_human"));
    return call;
  }

  private static ToolCall stored(String session, SessionStore through, String callId, String instance) {
    return present(through.toolCalls().find(session, callId), "tool call %s through the %s instance", callId, instance);
  }

  private static void assertExpired(ToolCall call, Instant deadline, String instance) {
    assertThat(call.status()).as("status of %s through the %s instance after its deadline %s passed", call.id(),
        instance, deadline).isEqualTo(ToolCallStatus.EXPIRED);
    assertThat(call.result()).as("result of expired call %s through the %s instance", call.id(), instance)
        .isEqualTo(Expiry.result(deadline));
  }

  /** Runs the first call through the peer after the first instance was closed, failing clearly if it throws. */
  private static <T> T afterTheFirstClosed(String what, Supplier<T> call) {
    try {
      return call.get();
    } catch (RuntimeException e) {
      throw new AssertionError(what + " failed after the first instance was closed, as if the deadline lived in"
          + " it: " + e, e);
    }
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("A deadline set through an instance that is then closed expires on time for the other, which cannot"
      + " resolve the call")
  void aDeadlineOutlivesTheInstanceThatSetIt() {
    SessionStore peer = deadlinePeer();
    String session = id("session");
    String call = pendingCall(store, session);
    assertThat(store.toolCalls().expireAfter(session, call, Duration.ofSeconds(30))).as("expireAfter through the first"
        + " instance").isTrue();
    Instant deadline = TestClock.START.plusSeconds(30);
    store.close();

    ToolCall before = afterTheFirstClosed("find through the second instance",
        () -> stored(session, peer, call, "second"));
    assertThat(before.status()).as("status through the second instance before the deadline")
        .isEqualTo(ToolCallStatus.PENDING);
    assertThat(before.deadline()).as("deadline set through the closed instance, read through the second")
        .isEqualTo(deadline);

    clock.advance(Duration.ofSeconds(31));

    Resolution late = peer.toolCalls().resolve(session, call, ToolCallStatus.COMPLETED, json("{\"late\":true}"));
    assertThat(late.won()).as("a resolve through the second instance after the deadline passed").isFalse();
    assertThat(((Resolution.Stale) late).current()).as("current state in the stale outcome")
        .hasValueSatisfying(current -> assertExpired(current, deadline, "second"));
    assertExpired(stored(session, peer, call, "second"), deadline, "second");
    assertThat(peer.toolCalls().pending(session)).as("pending calls through the second instance after the deadline")
        .isEmpty();
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("A deadline cancelled through one instance stays cancelled in the other: the call never expires")
  void aCancelledDeadlineStaysCancelledInThePeer() {
    SessionStore peer = deadlinePeer();
    String session = id("session");
    String call = pendingCall(store, session);
    store.toolCalls().expireAfter(session, call, Duration.ofSeconds(10));
    assertThat(store.toolCalls().cancelDeadline(session, call)).as("cancelDeadline through the first instance").isTrue();

    assertThat(stored(session, peer, call, "second").deadline()).as("deadline through the second instance after the first"
        + " cancelled it").isNull();
    assertThat(peer.toolCalls().cancelDeadline(session, call)).as("cancelDeadline through the second instance after the"
        + " first cancelled it").isFalse();

    clock.advance(Duration.ofHours(1));
    for (String instance : List.of("first", "second")) {
      SessionStore through = instance.equals("first") ? store : peer;
      assertThat(stored(session, through, call, instance).status()).as("status through the %s instance long after the"
          + " cancelled deadline", instance).isEqualTo(ToolCallStatus.PENDING);
    }
    assertThat(peer.toolCalls().resolve(session, call, ToolCallStatus.COMPLETED, null).won())
        .as("a resolve through the second instance long after the cancelled deadline").isTrue();
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("Rescheduling through the other instance replaces the deadline for both: the old one passes unnoticed")
  void reschedulingThroughThePeerReplacesTheDeadline() {
    SessionStore peer = deadlinePeer();
    String session = id("session");
    String call = pendingCall(store, session);
    store.toolCalls().expireAfter(session, call, Duration.ofSeconds(10));
    assertThat(peer.toolCalls().expireAfter(session, call, Duration.ofSeconds(60))).as("rescheduling through the second"
        + " instance").isTrue();
    Instant newDeadline = TestClock.START.plusSeconds(60);

    clock.advance(Duration.ofSeconds(30));
    for (String instance : List.of("first", "second")) {
      ToolCall midway = stored(session, instance.equals("first") ? store : peer, call, instance);
      assertThat(midway.status()).as("status through the %s instance after the replaced deadline passed", instance)
          .isEqualTo(ToolCallStatus.PENDING);
      assertThat(midway.deadline()).as("deadline through the %s instance", instance).isEqualTo(newDeadline);
    }

    clock.advance(Duration.ofSeconds(30));
    assertExpired(stored(session, store, call, "first"), newDeadline, "first");
    assertExpired(stored(session, peer, call, "second"), newDeadline, "second");
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("A call resolved through one instance before its deadline never expires in the instance that set it")
  void aResolveThroughThePeerClearsTheDeadline() {
    SessionStore peer = deadlinePeer();
    String session = id("session");
    String call = pendingCall(store, session);
    store.toolCalls().expireAfter(session, call, Duration.ofSeconds(10));

    assertThat(peer.toolCalls().resolve(session, call, ToolCallStatus.COMPLETED, json("{\"in\":\"time\"}")).won())
        .as("a resolve through the second instance before the deadline").isTrue();
    clock.advance(Duration.ofMinutes(1));

    ToolCall settled = stored(session, store, call, "first");
    assertThat(settled.status()).as("status through the first instance long after the old deadline")
        .isEqualTo(ToolCallStatus.COMPLETED);
    assertThat(settled.result()).isEqualTo(json("{\"in\":\"time\"}"));
    assertThat(store.toolCalls().expireAfter(session, call, Duration.ofSeconds(5))).as("expireAfter through the first"
        + " instance on a call the second resolved").isFalse();
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("A tool-call wait on one instance wakes on a resolution committed through the other")
  void aToolCallWaitWakesOnAResolutionThroughThePeer() throws Exception {
    SessionStore peer = peerFor(Capability.CROSS_PROCESS_WAKEUP, Capability.TOOL_CALLS);
    String session = id("session");
    String call = pendingCall(store, session);
    var waiting = ToolCallWaitContract.waitOn(store, session, call);

    long resolvedAt = System.nanoTime();
    assertThat(peer.commit(Step.builder(session).resolve(call, ToolCallStatus.COMPLETED, json("{\"by\":\"peer\"}"))
        .event(event(id("result"))).build()).isCommitted()).as("the answer step through the second instance").isTrue();

    Optional<ToolCall> seen = ToolCallWaitContract.outcome(waiting, resolvedAt,
        "what the waiter on the first instance got");
    assertThat(seen).as("what the waiter on the first instance got").isPresent();
    assertThat(seen.get().result()).isEqualTo(json("{\"by\":\"peer\"}"));
  }
}
