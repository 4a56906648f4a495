package dev.sessionstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.StoreFailureException;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Waiting reads and tool-call waits pending while the database is down (guarantee 17 of docs/guarantees.md): the
 * PostgreSQL of this class is stopped under 18 pending waits and started again some seconds later. Waits whose
 * timeout passes while it is down return as a timeout does (an empty page, an empty call), near their timeout; waits
 * pending across the restart return the append and the resolution made right after it, before the store's listener
 * may have listened again (so that notification may be lost and the wait must re-read); no wait throws. The waiting
 * store polls only every ten minutes, so what wakes it after the restart is the store itself.
 */
class PostgresWaitOutageTest {

  /** Waits of each kind: half of them end during the outage, half outlive it. */
  private static final int WAITS_PER_KIND = 9;
  /** The timeout of the waits that end while the database is down. */
  private static final Duration SHORT = Duration.ofSeconds(3);
  /** The timeout of the waits that outlive the outage. */
  private static final Duration LONG = Duration.ofSeconds(90);
  /** From the start of the waits to stopping the database. */
  private static final Duration BEFORE_STOP = Duration.ofSeconds(1);
  /** How long the database stays down: past every short wait's timeout. */
  private static final Duration DOWN_FOR = Duration.ofSeconds(5);
  /** How much later than its timeout a wait that timed out during the outage may return. */
  private static final Duration LATE_BOUND = Duration.ofSeconds(2);
  /** How long after the append and resolution the long waits must have returned them. */
  private static final Duration WAKE_BOUND = Duration.ofSeconds(15);

  @RegisterExtension
  static final OwnedPostgres postgres = OwnedPostgres.perTestClass();

  @Test
  @DisplayName("18 waits across a database stop and start: those timing out while it is down return as a timeout,"
      + " the others return the append and resolution made after the restart, none throws")
  void waitsOutliveTheOutage() throws Exception {
    OpenStores stores = new OpenStores(postgres, Database.uniqueSchema("wait_outage"));
    SessionStore waiter = stores.store("waiter", 3, StoreTuning.defaults().notificationsOnly());
    SessionStore peer = stores.store("peer", 2, StoreTuning.defaults().retryTimeout(Duration.ofSeconds(60)));
    ExecutorService threads = Executors.newCachedThreadPool();
    try {
      for (int i = 0; i < WAITS_PER_KIND; i++) {
        peer.toolCalls().save(ToolCallWrite.of("short-call-" + i, "call", "approve"));
        peer.toolCalls().save(ToolCallWrite.of("long-call-" + i, "call", "approve"));
      }
      List<Future<Long>> shortWaits = new ArrayList<>();
      List<Future<Long>> longWaits = new ArrayList<>();
      long started = System.nanoTime();
      for (int i = 0; i < WAITS_PER_KIND; i++) {
        String shortSession = "short-" + i;
        String longSession = "long-" + i;
        String shortCall = "short-call-" + i;
        if (i % 2 == 0) {
          shortWaits.add(threads.submit(timed(() -> waiter.events().await(shortSession, EventQuery.all(), SHORT),
              page -> assertThat(page.isEmpty()).as("a timed-out waiting read's page").isTrue())));
          longWaits.add(threads.submit(timed(() -> waiter.events().await(longSession, EventQuery.all(), LONG),
              page -> assertThat(page.items()).extracting(Event::id).containsExactly("after-" + longSession))));
        } else {
          shortWaits.add(threads.submit(timed(() -> waiter.toolCalls().await("call", shortCall, SHORT),
              call -> assertThat(call).as("a timed-out tool-call wait").isEmpty())));
          String callId = "long-call-" + i;
          longWaits.add(threads.submit(timed(() -> waiter.toolCalls().await("call", callId, LONG),
              call -> assertThat(call).map(ToolCall::status).hasValue(ToolCallStatus.COMPLETED))));
        }
      }
      Thread.sleep(BEFORE_STOP.toMillis());
      assertThat(shortWaits).as("no wait returned before the outage").noneMatch(Future::isDone);
      postgres.stop();
      long stopped = System.nanoTime();
      Thread.sleep(DOWN_FOR.toMillis());
      postgres.startAgain();
      long restarted = System.nanoTime();

      for (int i = 0; i < WAITS_PER_KIND; i++) {
        if (i % 2 == 0) {
          peer.events().append("long-" + i, NewEvent.of("message").withId("after-long-" + i));
        } else {
          peer.toolCalls().resolve("call", "long-call-" + i, ToolCallStatus.COMPLETED, Json.of("{\"ok\":true}"));
        }
      }
      long written = System.nanoTime();

      List<Throwable> thrown = new ArrayList<>();
      long latestShort = 0;
      for (Future<Long> wait : shortWaits) {
        Long returned = outcome(wait, thrown);
        if (returned != null) {
          latestShort = Math.max(latestShort, returned - started);
        }
      }
      long latestLong = 0;
      for (Future<Long> wait : longWaits) {
        Long returned = outcome(wait, thrown);
        if (returned != null) {
          latestLong = Math.max(latestLong, returned - written);
        }
      }
      System.out.printf("PostgresWaitOutageTest: %d waits; database down %d ms; %d short (%d s) waits returned at most"
              + " %d ms after they started; %d long waits returned at most %d ms after the append and resolution,"
              + " made %d ms after the restart; %d threw%n", 2 * WAITS_PER_KIND,
          TimeUnit.NANOSECONDS.toMillis(restarted - stopped), WAITS_PER_KIND, SHORT.toSeconds(),
          TimeUnit.NANOSECONDS.toMillis(latestShort), WAITS_PER_KIND, TimeUnit.NANOSECONDS.toMillis(latestLong),
          TimeUnit.NANOSECONDS.toMillis(written - restarted), thrown.size());
      assertThat(thrown).as("waits that threw instead of waiting").isEmpty();
      assertThat(latestShort).as("the short waits returned near their timeout, while the database was down")
          .isLessThan(SHORT.plus(LATE_BOUND).toNanos()).isLessThan(restarted - started);
      assertThat(latestLong).as("the long waits returned soon after the append and resolution")
          .isLessThan(WAKE_BOUND.toNanos());
    } finally {
      threads.shutdownNow();
      stores.close();
    }
  }

  /** A wait that checks its result and returns when it returned ({@link System#nanoTime()}). */
  private static <T> Callable<Long> timed(Callable<T> wait, Consumer<T> check) {
    return () -> {
      T result = wait.call();
      long returned = System.nanoTime();
      check.accept(result);
      return returned;
    };
  }

  /** When the wait returned, or null after adding what it threw to {@code thrown}. */
  private static Long outcome(Future<Long> wait, List<Throwable> thrown) throws InterruptedException {
    try {
      return wait.get(LONG.plus(WAKE_BOUND).toSeconds(), TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      thrown.add(e.getCause());
      if (!(e.getCause() instanceof StoreFailureException) && !(e.getCause() instanceof AssertionError)) {
        e.getCause().printStackTrace();
      }
      return null;
    } catch (TimeoutException e) {
      thrown.add(e);
      return null;
    }
  }
}
