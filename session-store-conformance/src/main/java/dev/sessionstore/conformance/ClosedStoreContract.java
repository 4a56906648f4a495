package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.fail;

import dev.sessionstore.Archives;
import dev.sessionstore.Capability;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Checkpoints;
import dev.sessionstore.EventLog;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.ModelCallAudit;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.NewSummary;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.Search;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Sessions;
import dev.sessionstore.Step;
import dev.sessionstore.StoreClosedException;
import dev.sessionstore.Summaries;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.ToolCalls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A closed store ({@link dev.sessionstore.SessionStore#close()}): every operation of the store, of every aggregate it
 * handed out before the close and {@code commit(Step)} fails with {@link StoreClosedException}, whatever its
 * arguments; closing twice is harmless; and a waiting read or tool-call wait blocked when the store is closed is
 * released promptly, throwing {@link StoreClosedException}, long before its own timeout.
 *
 * <p>The waits are observed blocked (their thread parked) before the store is closed, and must end within
 * {@link #RELEASE_BOUND}, a bound far beyond any release on a loaded machine and far below the wait's own timeout.
 *
 * <p>If this fails, check: that the store is built behind {@code dev.sessionstore.spi.ValidatingSessionStore}
 * (which refuses calls after close for every aggregate); that the adapter's {@code close()} wakes every blocked wait
 * (a wait that sleeps on a condition or polls must notice the close, not only its timeout); and that {@code close()}
 * returns quietly when called again.
 */
public abstract class ClosedStoreContract extends Contract {

  /** The timeout of a wait the close must release: reaching it means the close did not. */
  static final Duration WAIT = Duration.ofMinutes(10);
  /** How soon after {@code close()} a blocked wait must have ended. */
  static final Duration RELEASE_BOUND = Duration.ofSeconds(20);
  /** How long the kit gives a wait to block before it gives up. */
  private static final long BLOCK_BOUND_NANOS = TimeUnit.SECONDS.toNanos(60);

  private static final String SESSION = "closing";

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected ClosedStoreContract(SessionStoreConformance kit) {
    super(kit);
  }

  /** One operation to try on the closed store, named for the failure message. */
  private record Operation(String name, ThrowingCallable call) {
  }

  /** Every operation of the store and of the aggregates it supports, bound to aggregates fetched while open. */
  private List<Operation> operations() {
    Sessions sessions = store.sessions();
    EventLog events = store.events();
    var runs = store.runs();
    List<Operation> operations = new ArrayList<>(List.of(
        new Operation("sessions()", store::sessions),
        new Operation("events()", store::events),
        new Operation("runs()", store::runs),
        new Operation("toolCalls()", store::toolCalls),
        new Operation("summaries()", store::summaries),
        new Operation("checkpoints()", store::checkpoints),
        new Operation("modelCalls()", store::modelCalls),
        new Operation("archives()", store::archives),
        new Operation("capabilities()", store::capabilities),
        new Operation("commit(step)", () -> store.commit(Step.builder(SESSION).event(event("c-1")).build())),
        new Operation("commit(null)", () -> store.commit(null)),
        new Operation("sessions().save", () -> sessions.save(SessionWrite.of(SESSION))),
        new Operation("sessions().mergeMetadata", () -> sessions.mergeMetadata(SESSION, Map.of("k", "v"))),
        new Operation("sessions().find", () -> sessions.find(SESSION)),
        new Operation("sessions().find(null)", () -> sessions.find(null)),
        new Operation("sessions().findByName", () -> sessions.findByName("name")),
        new Operation("sessions().list", () -> sessions.list(SessionQuery.all())),
        new Operation("sessions().listResumable", sessions::listResumable),
        new Operation("sessions().delete", () -> sessions.delete(SESSION)),
        new Operation("events().append", () -> events.append(SESSION, event("n-1"))),
        new Operation("events().append(null, null)", () -> events.append(null, null)),
        new Operation("events().append with expected seq", () -> events.append(SESSION, event("n-1"), 1)),
        new Operation("events().appendAll", () -> events.appendAll(SESSION, List.of(event("n-1")))),
        new Operation("events().appendAll of nothing", () -> events.appendAll(SESSION, List.of())),
        new Operation("events().appendAll with expected seq",
            () -> events.appendAll(SESSION, List.of(event("n-1")), 1)),
        new Operation("events().lastSeq", () -> events.lastSeq(SESSION)),
        new Operation("events().find", () -> events.find(SESSION, "e-1")),
        new Operation("events().read", () -> events.read(SESSION, EventQuery.all())),
        new Operation("runs().save", () -> runs.save(RunWrite.of("r", SESSION))),
        new Operation("runs().find", () -> runs.find(SESSION, "r")),
        new Operation("runs().list", () -> runs.list(SESSION)),
        new Operation("runs().list(status)", () -> runs.list(SESSION, RunStatus.RUNNING)),
        new Operation("runs().active", () -> runs.active(SESSION))));
    if (store.supports(Capability.WAITING_READS)) {
      operations.add(new Operation("events().await",
          () -> events.await(SESSION, EventQuery.all().after(99), Duration.ZERO)));
    }
    if (store.supports(Capability.TRUNCATION)) {
      operations.add(new Operation("events().truncate", () -> events.truncate(SESSION, 1)));
    }
    if (store.supports(Capability.FORKS)) {
      operations.add(new Operation("sessions().fork", () -> sessions.fork(SESSION, 1)));
      operations.add(new Operation("sessions().fork(newSessionId)", () -> sessions.fork(SESSION, 1, "fork")));
    }
    if (store.supports(Capability.TENANTS)) {
      operations.add(new Operation("sessions().deleteByTenant", () -> sessions.deleteByTenant("tenant")));
    }
    if (store.supports(Capability.SEARCH)) {
      Search search = store.search();
      operations.add(new Operation("search().find", () -> search.find(SearchQuery.of("word"))));
      operations.add(new Operation("search().find(null)", () -> search.find(null)));
    }
    if (store.supports(Capability.WRITER_FENCING)) {
      operations.add(new Operation("sessions().claim", () -> sessions.claim(SESSION, "node-a")));
      operations.add(new Operation("sessions().claim(null, null)", () -> sessions.claim(null, null)));
      operations.add(new Operation("sessions().currentClaim", () -> sessions.currentClaim(SESSION)));
      operations.add(new Operation("sessions().currentClaim(null)", () -> sessions.currentClaim(null)));
    }
    if (store.supports(Capability.TOOL_CALLS)) {
      ToolCalls calls = store.toolCalls();
      operations.addAll(List.of(
          new Operation("toolCalls().save", () -> calls.save(ToolCallWrite.of("c", SESSION, "tool"))),
          new Operation("toolCalls().find", () -> calls.find(SESSION, "c")),
          new Operation("toolCalls().pending", () -> calls.pending(SESSION)),
          new Operation("toolCalls().resolve",
              () -> calls.resolve(SESSION, "c", ToolCallStatus.COMPLETED, Json.emptyObject())),
          new Operation("toolCalls().await", () -> calls.await(SESSION, "c", Duration.ZERO)),
          new Operation("toolCalls().cancelDeadline", () -> calls.cancelDeadline(SESSION, "c"))));
      if (store.supports(Capability.DEADLINES)) {
        operations.add(new Operation("toolCalls().expireAt", () -> calls.expireAt(SESSION, "c", clock.instant())));
        operations.add(new Operation("toolCalls().expireAfter",
            () -> calls.expireAfter(SESSION, "c", Duration.ofSeconds(1))));
      }
    }
    if (store.supports(Capability.SUMMARIES)) {
      Summaries summaries = store.summaries();
      operations.addAll(List.of(
          new Operation("summaries().put", () -> summaries.put(SESSION, NewSummary.of(1, 1, json("{}")))),
          new Operation("summaries().latest", () -> summaries.latest(SESSION)),
          new Operation("summaries().list", () -> summaries.list(SESSION)),
          new Operation("summaries().revive", () -> summaries.revive(SESSION)),
          new Operation("summaries().revive(agentId)", () -> summaries.revive(SESSION, "agent")),
          new Operation("summaries().chapter", () -> summaries.chapter(SESSION, 1)),
          new Operation("summaries().chapter(agentId)", () -> summaries.chapter(SESSION, 1, "agent"))));
    }
    if (store.supports(Capability.CHECKPOINTS)) {
      Checkpoints checkpoints = store.checkpoints();
      CheckpointKey key = CheckpointKey.of(SESSION, "turn");
      operations.addAll(List.of(
          new Operation("checkpoints().put", () -> checkpoints.put(key, new byte[] {1})),
          new Operation("checkpoints().get", () -> checkpoints.get(key)),
          new Operation("checkpoints().delete", () -> checkpoints.delete(key))));
    }
    if (store.supports(Capability.MODEL_CALL_AUDIT)) {
      ModelCallAudit audit = store.modelCalls();
      operations.addAll(List.of(
          new Operation("modelCalls().enabled", audit::enabled),
          new Operation("modelCalls().record", () -> audit.record(SESSION, NewModelCall.of(1, "m", json("{}")))),
          new Operation("modelCalls().list", () -> audit.list(SESSION)),
          new Operation("modelCalls().deleteOlderThan(sessionId, age)",
              () -> audit.deleteOlderThan(SESSION, Duration.ZERO)),
          new Operation("modelCalls().deleteOlderThan(age)", () -> audit.deleteOlderThan(Duration.ZERO))));
    }
    if (store.supports(Capability.ARCHIVES)) {
      Archives archives = store.archives();
      SessionArchive archive = archives.export(SESSION).orElseThrow();
      Checkpoint global = new Checkpoint(CheckpointKey.global("runner"), new byte[] {1}, clock.instant());
      operations.addAll(List.of(
          new Operation("archives().export", () -> archives.export(SESSION)),
          new Operation("archives().importSession", () -> archives.importSession(archive)),
          new Operation("archives().importSession(null)", () -> archives.importSession(null)),
          new Operation("archives().globalCheckpoints", archives::globalCheckpoints),
          new Operation("archives().importGlobalCheckpoint", () -> archives.importGlobalCheckpoint(global))));
    }
    return operations;
  }

  @Test
  @DisplayName("After close, every operation of the store and of aggregates fetched before fails with"
      + " StoreClosedException, also with bad arguments")
  void everyOperationFailsAfterClose() {
    store.events().appendAll(SESSION, List.of(event("e-1"), event("e-2")));
    List<Operation> operations = operations();

    store.close();

    for (Operation operation : operations) {
      Throwable thrown = catchThrowable(operation.call());
      assertThat(thrown).as("%s after close", operation.name()).isInstanceOf(StoreClosedException.class);
    }
  }

  @Test
  @DisplayName("The store's own questions, its schema version and what it unwraps to, answer while it is open and fail "
      + "with StoreClosedException after close")
  void schemaVersionAndUnwrapFailAfterClose() {
    assertThat(store.schemaVersion()).as("schemaVersion() while open").isNotNull();
    assertThat(store.unwrap(String.class)).as("unwrap to a type no store is, while open").isEmpty();

    store.close();

    assertThat(catchThrowable(store::schemaVersion)).as("schemaVersion() after close")
        .isInstanceOf(StoreClosedException.class);
    assertThat(catchThrowable(() -> store.unwrap(String.class))).as("unwrap to a type no store is, after close")
        .isInstanceOf(StoreClosedException.class);
  }

  @Test
  @DisplayName("Closing twice is harmless, and the store stays closed")
  void closingTwiceIsHarmless() {
    store.close();

    assertThatCode(store::close).as("the second close()").doesNotThrowAnyException();
    assertThat(catchThrowable(() -> store.events().lastSeq(SESSION))).as("events() after two closes")
        .isInstanceOf(StoreClosedException.class);
  }

  @Test
  @DisplayName("A waiting read blocked when the store is closed is released promptly with StoreClosedException")
  void closeReleasesAWaitingRead() throws InterruptedException {
    assumeDeclared(Capability.WAITING_READS);
    long lastSeq = store.events().append(SESSION, event("e-1")).seq();
    EventLog events = store.events();

    assertReleasedByClose("the waiting read",
        () -> events.await(SESSION, EventQuery.all().after(lastSeq), WAIT));
  }

  @Test
  @DisplayName("A tool-call wait blocked when the store is closed is released promptly with StoreClosedException")
  void closeReleasesAToolCallWait() throws InterruptedException {
    assumeDeclared(Capability.TOOL_CALLS);
    store.toolCalls().save(ToolCallWrite.of("call", SESSION, "approve"));
    ToolCalls calls = store.toolCalls();

    assertReleasedByClose("the tool-call wait", () -> calls.await(SESSION, "call", WAIT));
  }

  /**
   * Starts {@code wait} on its own thread, observes that thread blocked, closes the store and asserts the wait ends
   * within {@link #RELEASE_BOUND} with {@link StoreClosedException}.
   */
  private void assertReleasedByClose(String what, Supplier<?> wait) throws InterruptedException {
    CompletableFuture<Object> outcome = new CompletableFuture<>();
    Thread waiter = new Thread(() -> {
      try {
        outcome.complete(wait.get());
      } catch (RuntimeException e) {
        outcome.completeExceptionally(e);
      }
    }, "kit-closed-store-waiter");
    waiter.setDaemon(true);
    waiter.start();
    awaitBlocked(what, waiter, outcome);

    long closedAt = System.nanoTime();
    store.close();

    try {
      Object returned = outcome.get(RELEASE_BOUND.toNanos() - (System.nanoTime() - closedAt), TimeUnit.NANOSECONDS);
      fail("%s returned %s after close instead of failing with StoreClosedException", what, returned);
    } catch (TimeoutException e) {
      fail("%s was still blocked %s after close() (its timeout is %s)", what, RELEASE_BOUND, WAIT);
    } catch (ExecutionException e) {
      assertThat(e.getCause()).as("how %s ended after close()", what).isInstanceOf(StoreClosedException.class);
    }
  }

  /** Returns once {@code waiter} is parked; fails if the wait ended or never blocked. */
  private static void awaitBlocked(String what, Thread waiter, CompletableFuture<Object> outcome) {
    long giveUp = System.nanoTime() + BLOCK_BOUND_NANOS;
    while (waiter.getState() != Thread.State.WAITING && waiter.getState() != Thread.State.TIMED_WAITING) {
      if (outcome.isDone()) {
        fail("%s ended before the store was closed: %s", what, outcome);
      }
      if (System.nanoTime() - giveUp > 0) {
        fail("%s never blocked", what);
      }
      Thread.onSpinWait();
    }
  }
}
