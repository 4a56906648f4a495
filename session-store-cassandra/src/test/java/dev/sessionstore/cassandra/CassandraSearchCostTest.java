package dev.sessionstore.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.cassandra.cluster.SharedCluster;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A selective Cassandra search does the same work in a store of 20,000 events over 200 sessions as in one of 2,000
 * over 20: each statement the search runs is traced ({@link TracedSession}) and its requests, result pages and the
 * rows the replicas read are summed, for a query scoped to one session, to a tenant, to sessions' metadata and to
 * the whole namespace. Every event holds common words (each word of every event shares the query's prefix entries
 * too); 5 events, written first, hold the rare word. The test fails when the large store's count is more than the
 * small one's plus one request, one page or 8 rows.
 */
class CassandraSearchCostTest {

  private static final int SESSIONS_SMALL = 20;
  private static final int SESSIONS_LARGE = 200;
  private static final int EVENTS_PER_SESSION = 100;
  private static final int RARE = 5;

  private static TracedSession traced;
  private static SessionStore store;

  @BeforeAll
  static void open() {
    traced = new TracedSession();
    store = traced.store(UUID.randomUUID().toString());
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

  /** Sessions {@code from} to {@code to} (exclusive), each of {@link #EVENTS_PER_SESSION} common events. */
  private static void fill(int from, int to) {
    for (int session = from; session < to; session++) {
      String id = "s" + session;
      store.sessions().save(SessionWrite.of(id).withTenant("t" + session % 2).withMetadata("user", "u" + session % 2));
      store.events().appendAll(id, IntStream.range(0, EVENTS_PER_SESSION)
          .mapToObj(i -> NewEvent.of("message", Json.of("{\"text\":\"zebrafish zeal order " + i + " status "
              + "shipped quartz\"}")))
          .toList());
    }
  }

  @Test
  @DisplayName("A selective search reads no more rows and pages in a store ten times larger")
  void workDoesNotGrowWithTheStore() {
    fill(0, SESSIONS_SMALL);
    for (int i = 0; i < RARE; i++) {
      store.events().append("s0", NewEvent.of("message", Json.of("{\"text\":\"the zebra quarrelled\"}")));
    }
    Map<String, SearchQuery> queries = new LinkedHashMap<>();
    queries.put("word, one session", SearchQuery.of("zebra").session("s0"));
    queries.put("word and prefix, tenant", SearchQuery.of("zebra quarrel*").tenant("t0"));
    queries.put("word, sessions' metadata", SearchQuery.of("zebra").sessionMetadata("user", "u0"));
    queries.put("phrase, whole store", SearchQuery.of("\"the zebra\""));
    Map<String, TracedSession.Cost> small = new LinkedHashMap<>();
    for (Map.Entry<String, SearchQuery> query : queries.entrySet()) {
      assertThat(store.search().find(query.getValue()).hits()).as(query.getKey()).hasSize(RARE);
      small.put(query.getKey(), traced.measure(() -> store.search().find(query.getValue())));
    }
    fill(SESSIONS_SMALL, SESSIONS_LARGE);
    List<String> grown = new ArrayList<>();
    for (Map.Entry<String, SearchQuery> query : queries.entrySet()) {
      assertThat(store.search().find(query.getValue()).hits()).as(query.getKey()).hasSize(RARE);
      TracedSession.Cost before = small.get(query.getKey());
      TracedSession.Cost after = traced.measure(() -> store.search().find(query.getValue()));
      String line = query.getKey() + ": " + before + " at " + SESSIONS_SMALL * EVENTS_PER_SESSION + " events, "
          + after + " at " + SESSIONS_LARGE * EVENTS_PER_SESSION;
      System.out.println("search cost on " + SharedCluster.cluster().size() + " node(s): " + line);
      assertThat(before.rows()).as("rows the traces show for " + query.getKey()).isPositive();
      if (after.rows() > before.rows() + 8 || after.pages() > before.pages() + 1
          || after.requests() > before.requests() + 1) {
        grown.add(line);
      }
    }
    assertThat(grown).as("searches whose work grows with the store").isEmpty();
  }
}
