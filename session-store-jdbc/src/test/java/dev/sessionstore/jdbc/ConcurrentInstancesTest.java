package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Two store instances with separate pools on one database behave as one store, as two processes would. */
class ConcurrentInstancesTest {

  private final TestSchema schema = new TestSchema();

  @AfterEach
  void dropSchema() {
    schema.close();
  }

  @Test
  @DisplayName("2 instances x 8 threads x 250 appends to one session get seqs 1..4000, each exactly once")
  void appendsFromTwoInstancesStayGapless() throws Exception {
    SessionStore first = schema.store(builder -> builder);
    SessionStore second = schema.store(builder -> builder);
    String session = "shared";
    int threadsPerStore = 8;
    int appendsPerThread = 250;

    ExecutorService threads = Executors.newFixedThreadPool(2 * threadsPerStore);
    List<Future<List<Long>>> seqs = new ArrayList<>();
    for (int t = 0; t < 2 * threadsPerStore; t++) {
      SessionStore store = t % 2 == 0 ? first : second;
      String writer = "w" + t;
      seqs.add(threads.submit((Callable<List<Long>>) () -> {
        List<Long> mine = new ArrayList<>();
        for (int i = 0; i < appendsPerThread; i++) {
          mine.add(store.events().append(session, NewEvent.of("message").withId(writer + "-" + i)).seq());
        }
        return mine;
      }));
    }
    List<Long> returned = new ArrayList<>();
    for (Future<List<Long>> future : seqs) {
      returned.addAll(future.get(2, TimeUnit.MINUTES));
    }
    threads.shutdown();

    long total = 2L * threadsPerStore * appendsPerThread;
    List<Long> expected = LongStream.rangeClosed(1, total).boxed().toList();
    assertThat(returned).as("seqs returned to all writers").containsExactlyInAnyOrderElementsOf(expected);
    List<Event> stored = second.events().read(session, EventQuery.all()).items();
    assertThat(stored).extracting(Event::seq).as("seqs stored").containsExactlyElementsOf(expected);
    assertThat(first.events().lastSeq(session)).isEqualTo(total);
  }
}
