package dev.sessionstore.cassandra.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Event;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.StoreFailureException;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Waiting reads and tool-call waits of one store across an outage the caller makes (nodes killed, then started again;
 * guarantee 17 of docs/guarantees.md), for a fault test on one node and one on three: two waits whose timeout passes
 * during the outage must return as a timeout does (an empty page, an empty call) near their timeout and without
 * throwing; two waits pending across it must return the append and the resolution made once the cluster answers
 * again. Asserts as it goes; returns its figures for the test's log.
 */
public final class WaitsAcrossOutage {

  /** How much later than its timeout a wait that timed out during the outage may return. */
  private static final Duration LATE_BOUND = Duration.ofSeconds(3);
  /** How long after the outage the store may take to accept the append and resolution (driver reconnecting). */
  private static final Duration WRITE_AGAIN_BOUND = Duration.ofSeconds(120);
  /** How long after the append and resolution the pending waits must have returned them. */
  private static final Duration WAKE_BOUND = Duration.ofSeconds(20);

  /** What the run measured. */
  public record Figures(long outageMillis, long shortWaitMillis, long writeAgainMillis, long wakeMillis) {

    @Override
    public String toString() {
      return "outage " + outageMillis + " ms; the waits that timed out during it returned " + shortWaitMillis
          + " ms after they began; the store wrote again " + writeAgainMillis + " ms after the outage; the pending"
          + " waits returned " + wakeMillis + " ms after the append and resolution";
    }
  }

  private WaitsAcrossOutage() {
  }

  /**
   * Starts the waits on {@code store}, runs {@code outage} (which must make the cluster unable to answer the store's
   * reads, and return) once they wait, checks the short waits while the cluster stays down, then runs
   * {@code recovery} (which must return once the cluster answers again) and checks the pending waits.
   *
   * @param shortTimeout the timeout of the waits that end during the outage, shorter than the outage
   * @param longTimeout  the timeout of the waits that outlive it, longer than the whole run
   */
  public static Figures run(SessionStore store, Duration shortTimeout, Duration longTimeout, Runnable outage,
      Runnable recovery) throws Exception {
    store.toolCalls().save(ToolCallWrite.of("short-call", "calls", "approve"));
    store.toolCalls().save(ToolCallWrite.of("long-call", "calls", "approve"));
    ExecutorService threads = Executors.newCachedThreadPool();
    try {
      Map<CompletableFuture<?>, Long> returnedAt = new ConcurrentHashMap<>();
      long started = System.nanoTime();
      CompletableFuture<EventPage> shortRead = async(threads, returnedAt,
          () -> store.events().await("short", EventQuery.all(), shortTimeout));
      CompletableFuture<Optional<ToolCall>> shortCall = async(threads, returnedAt,
          () -> store.toolCalls().await("calls", "short-call", shortTimeout));
      CompletableFuture<EventPage> longRead = async(threads, returnedAt,
          () -> store.events().await("long", EventQuery.all(), longTimeout));
      CompletableFuture<Optional<ToolCall>> longCall = async(threads, returnedAt,
          () -> store.toolCalls().await("calls", "long-call", longTimeout));
      Thread.sleep(500);
      assertThat(shortRead.isDone() || shortCall.isDone()).as("a wait returned before the outage").isFalse();
      long down = System.nanoTime();
      outage.run();

      long limit = shortTimeout.plus(LATE_BOUND).toNanos() - (System.nanoTime() - started);
      EventPage timedOutPage = shortRead.get(Math.max(0, limit), TimeUnit.NANOSECONDS);
      Optional<ToolCall> timedOutCall = shortCall.get(Math.max(0, limit), TimeUnit.NANOSECONDS);
      long shortReturned = Math.max(returnedAt.get(shortRead), returnedAt.get(shortCall)) - started;
      assertThat(timedOutPage.isEmpty()).as("the page of a waiting read that timed out during the outage").isTrue();
      assertThat(timedOutCall).as("a tool-call wait that timed out during the outage").isEmpty();
      assertThat(shortReturned).as("when the waits that timed out during the outage returned, ns")
          .isBetween(shortTimeout.toNanos(), shortTimeout.plus(LATE_BOUND).toNanos());
      assertThat(longRead.isDone() || longCall.isDone()).as("a long wait returned during the outage").isFalse();

      recovery.run();
      long up = System.nanoTime();
      writeUntilAccepted(() -> store.events().append("long", NewEvent.of("message").withId("after-outage")));
      writeUntilAccepted(() -> store.toolCalls().resolve("calls", "long-call", ToolCallStatus.COMPLETED,
          Json.of("{\"approved\":true}")));
      long written = System.nanoTime();
      EventPage woken = longRead.get(WAKE_BOUND.toSeconds(), TimeUnit.SECONDS);
      Optional<ToolCall> resolved = longCall.get(WAKE_BOUND.toSeconds(), TimeUnit.SECONDS);
      long returned = System.nanoTime();
      assertThat(woken.items()).extracting(Event::id).containsExactly("after-outage");
      assertThat(resolved).map(ToolCall::status).hasValue(ToolCallStatus.COMPLETED);
      return new Figures(TimeUnit.NANOSECONDS.toMillis(up - down), TimeUnit.NANOSECONDS.toMillis(shortReturned),
          TimeUnit.NANOSECONDS.toMillis(written - up), TimeUnit.NANOSECONDS.toMillis(returned - written));
    } finally {
      threads.shutdownNow();
    }
  }

  /** Runs {@code wait} on {@code threads}, noting in {@code returnedAt} when it returned. */
  private static <T> CompletableFuture<T> async(ExecutorService threads, Map<CompletableFuture<?>, Long> returnedAt,
      Supplier<T> wait) {
    CompletableFuture<T> future = new CompletableFuture<>();
    threads.execute(() -> {
      try {
        T result = wait.get();
        returnedAt.put(future, System.nanoTime());
        future.complete(result);
      } catch (Throwable e) {
        future.completeExceptionally(e);
      }
    });
    return future;
  }

  /** Runs an idempotent write until the store accepts it: the driver may take a while to reconnect. */
  private static void writeUntilAccepted(Runnable write) throws InterruptedException {
    long deadline = System.nanoTime() + WRITE_AGAIN_BOUND.toNanos();
    while (true) {
      try {
        write.run();
        return;
      } catch (StoreFailureException e) {
        assertThat(e.isRetryable()).as("a write failure after the outage is retryable: " + e).isTrue();
        assertThat(System.nanoTime()).as("the store writes again within " + WRITE_AGAIN_BOUND + ": " + e)
            .isLessThan(deadline);
        Thread.sleep(200);
      }
    }
  }
}
