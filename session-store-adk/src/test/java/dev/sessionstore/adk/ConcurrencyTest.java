package dev.sessionstore.adk;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.sessions.BaseSessionService;
import com.google.adk.sessions.Session;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Concurrent appends, where ADK's in-memory service loses events: many threads on one session, each event sent
 * twice (its retry comes while the other threads append), and two sessions of one user racing on {@code user:} keys.
 */
class ConcurrencyTest {

  private static final int THREADS = 16;
  private static final int EVENTS_PER_THREAD = 10;

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("16 threads appending to one session: every event stored once, in one order, every delta applied")
  void sixteenThreadsOnOneSession(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseSessionService service = database.service();
      service.createSession("app", "user", null, "s").blockingGet();
      List<List<Event>> sent = run(THREADS, thread -> {
        // each thread holds its own (soon stale) session object, as concurrent requests do
        Session session = service.getSession("app", "user", "s", Optional.empty()).blockingGet();
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < EVENTS_PER_THREAD; i++) {
          String tag = thread + "-" + i;
          Event event = Event.builder().id("e-" + tag).author("t" + thread).actions(EventActions.builder()
              .stateDelta(Map.of("s-" + tag, i, "user:u-" + tag, i, "app:a-" + tag, i, "last", tag)).build())
              .build();
          service.appendEvent(session, event).blockingGet();
          service.appendEvent(session, event).blockingGet();
          events.add(event);
        }
        return events;
      });

      Session stored = service.getSession("app", "user", "s", Optional.empty()).blockingGet();
      List<String> ids = stored.events().stream().map(Event::id).toList();
      assertThat(ids).hasSize(THREADS * EVENTS_PER_THREAD).doesNotHaveDuplicates();
      assertThat(service.listEvents("app", "user", "s").blockingGet().events()).extracting(Event::id)
          .containsExactlyElementsOf(ids);
      for (List<Event> events : sent) {
        // each thread's events keep their order among the others'
        List<String> own = events.stream().map(Event::id).toList();
        assertThat(ids.stream().filter(own::contains).toList()).containsExactlyElementsOf(own);
        for (Event event : events) {
          String tag = event.id().substring(2);
          int i = Integer.parseInt(tag.substring(tag.indexOf('-') + 1));
          assertThat(stored.state()).containsEntry("s-" + tag, i).containsEntry("user:u-" + tag, i)
              .containsEntry("app:a-" + tag, i);
        }
      }
      String lastWriter = ids.get(ids.size() - 1).substring(2);
      assertThat(stored.state()).containsEntry("last", lastWriter);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("two sessions of one user racing on user: keys lose no update; both read the same user state")
  void twoSessionsRaceOnUserKeys(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseSessionService first = database.service();
      BaseSessionService second = database.service();
      first.createSession("app", "user", null, "one").blockingGet();
      second.createSession("app", "user", null, "two").blockingGet();
      int rounds = 40;
      run(2, thread -> {
        BaseSessionService service = thread == 0 ? first : second;
        Session session = service.getSession("app", "user", thread == 0 ? "one" : "two", Optional.empty())
            .blockingGet();
        for (int i = 0; i < rounds; i++) {
          service.appendEvent(session, Event.builder().author("t" + thread).actions(EventActions.builder()
              .stateDelta(Map.of("user:from-" + thread + "-" + i, i, "user:shared", thread + "-" + i)).build())
              .build()).blockingGet();
        }
        return List.of();
      });
      Map<String, Object> one = first.getSession("app", "user", "one", Optional.empty()).blockingGet().state();
      Map<String, Object> two = second.getSession("app", "user", "two", Optional.empty()).blockingGet().state();
      Set<String> expected = new HashSet<>();
      for (int thread = 0; thread < 2; thread++) {
        for (int i = 0; i < rounds; i++) {
          expected.add("user:from-" + thread + "-" + i);
        }
      }
      assertThat(one.keySet()).containsAll(expected);
      assertThat(one).isEqualTo(two);
      assertThat(one.get("user:shared")).isIn("0-" + (rounds - 1), "1-" + (rounds - 1));
    }
  }

  interface Worker {
    List<Event> run(int thread) throws Exception;
  }

  /** Runs {@code worker} on {@code threads} threads released together; returns their results in thread order. */
  static List<List<Event>> run(int threads, Worker worker) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<List<Event>>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        futures.add(pool.submit(() -> {
          start.await();
          return worker.run(thread);
        }));
      }
      start.countDown();
      List<List<Event>> results = new ArrayList<>();
      for (Future<List<Event>> future : futures) {
        results.add(future.get(3, TimeUnit.MINUTES));
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }
}
