package dev.sessionstore.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewSummary;
import dev.sessionstore.SessionStore;
import dev.sessionstore.cassandra.cluster.SharedCluster;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A Cassandra append, tail read and revival do the same work on a session of 10,000 events as on one of 1,000: each
 * statement the store runs during the call is traced ({@link TracedSession}), and the call's requests, result pages
 * and the rows the replicas read are summed. Both sessions live in one table; the test fails
 * when the long session's count is more than twice the short one's plus 16 rows (a page, a statement more at most).
 */
class CassandraReadCostTest {

  private static final int SHORT = 1_000;
  private static final int LONG = 10_000;
  private static final int BATCH = 100;

  private static TracedSession traced;
  private static SessionStore store;

  @BeforeAll
  static void fill() {
    traced = new TracedSession();
    store = traced.store(UUID.randomUUID().toString());
    fill("short", SHORT);
    fill("long", LONG);
  }

  @AfterAll
  static void close() {
    if (store != null) {
      store.close();
    }
    if (traced != null) {
      traced.close();
    }
  }

  /** {@code length} events in batches of {@link #BATCH}, a summary up to 20 events before the end. */
  private static void fill(String sessionId, int length) {
    for (int from = 0; from < length; from += BATCH) {
      int first = from;
      store.events().appendAll(sessionId, IntStream.range(first, first + BATCH)
          .mapToObj(i -> NewEvent.of("message", Json.of("{\"text\":\"message " + i + "\"}")).withId("e" + i))
          .toList());
    }
    store.summaries().put(sessionId, NewSummary.of(1, length - 20, Json.of("{\"text\":\"so far\"}")));
  }

  @Test
  @DisplayName("An append, a tail read and a revival read no more rows and pages on 10,000 events than on 1,000")
  void workDoesNotGrowWithTheSession() {
    Map<String, Consumer<String>> calls = new LinkedHashMap<>();
    int[] appended = new int[1];
    calls.put("append", id -> store.events().append(id, NewEvent.of("message").withId("new-" + appended[0]++)));
    calls.put("tail read (last 50)", id -> store.events().read(id, dev.sessionstore.EventQuery.all().last(50)));
    calls.put("revival", id -> store.summaries().revive(id));
    List<String> grown = new ArrayList<>();
    for (Map.Entry<String, Consumer<String>> call : calls.entrySet()) {
      // warm up: prepared statements, caches, the node's memtables
      traced.measure(() -> call.getValue().accept("short"));
      traced.measure(() -> call.getValue().accept("long"));
      TracedSession.Cost small = traced.measure(() -> call.getValue().accept("short"));
      TracedSession.Cost large = traced.measure(() -> call.getValue().accept("long"));
      String line = call.getKey() + ": " + small + " at " + SHORT + " events, " + large + " at " + LONG;
      System.out.println("read cost per call on " + SharedCluster.cluster().size() + " node(s): " + line);
      assertThat(small.rows()).as("rows the traces show for " + call.getKey()).isPositive();
      if (large.rows() > 2 * small.rows() + 16 || large.pages() > small.pages() + 1
          || large.requests() > small.requests() + 1) {
        grown.add(line);
      }
    }
    assertThat(grown).as("calls whose work grows with the session's length").isEmpty();
  }
}
