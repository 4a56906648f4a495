package dev.sessionstore.graph;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import dev.sessionstore.jdbc.StatementCounter;
import dev.sessionstore.jdbc.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A graph step's reads and writes (the latest checkpoint, a put on top of it, a checkpoint found by id) do not grow
 * with the thread: counted in SQL statements executed on PostgreSQL, not in time, at 10 and 10,000 checkpoints. The
 * threads are filled by {@link LongThreads}. The store's deadline sweep and notifications are off, so only the step counts.
 */
class ThreadCostTest {

  @Test
  @DisplayName("latest, put and find cost the same statements at 10 and 10,000 checkpoints")
  void graphStepCostIsFlat() {
    Map<Integer, List<Long>> costs = new LinkedHashMap<>();
    for (int length : new int[] {10, 10_000}) {
      costs.put(length, stepCost(length));
    }
    System.out.println("statements (latest, put, find) by thread length: " + costs);
    assertThat(costs.get(10).get(0)).as("statements of latest").isEqualTo(1);
    assertThat(costs.get(10).get(2)).as("statements of find").isEqualTo(1);
    assertThat(costs.get(10_000)).isEqualTo(costs.get(10));
  }

  private static List<Long> stepCost(int length) {
    String schema = TestDatabase.uniqueName("graph_cost");
    StatementCounter counter = new StatementCounter();
    try (HikariDataSource pool = GraphBackend.pool(schema, 4);
         SessionStore store = JdbcSessionStore.builder().dataSource(counter.wrap(pool)).schema(schema)
             .notifications(false).deadlineSweepInterval(Duration.ofHours(1)).build()) {
      List<GraphCheckpoint> checkpoints = new ArrayList<>();
      for (int i = 1; i <= length; i++) {
        checkpoints.add(checkpoint("c" + i));
      }
      LongThreads.append(store, "t", checkpoints);
      GraphThreads threads = GraphThreads.on(store);

      long before = counter.statements();
      StoredCheckpoint latest = threads.latest("t").orElseThrow();
      long latestCost = counter.statements() - before;

      before = counter.statements();
      StoredCheckpoint put = threads.put("t", checkpoint("next"), latest.head());
      long putCost = counter.statements() - before;
      System.out.println("a put at " + length + " checkpoints: "
          + counter.texts().subList((int) before, (int) counter.statements()));

      before = counter.statements();
      threads.find("t", "c1").orElseThrow();
      long findCost = counter.statements() - before;

      assertThat(latest.seq()).isEqualTo(length);
      assertThat(put.seq()).isEqualTo(length + 1);
      return List.of(latestCost, putCost, findCost);
    } finally {
      TestDatabase.get().execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
  }

  private static GraphCheckpoint checkpoint(String id) {
    return new GraphCheckpoint(id, Optional.of("agent"), Optional.of("tools"),
        CheckpointState.bytes(("state of " + id).getBytes(StandardCharsets.UTF_8)));
  }
}
