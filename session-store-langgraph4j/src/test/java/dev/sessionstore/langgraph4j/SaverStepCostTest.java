package dev.sessionstore.langgraph4j;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.SessionStore;
import dev.sessionstore.graph.CheckpointState;
import dev.sessionstore.graph.GraphBackend;
import dev.sessionstore.graph.GraphCheckpoint;
import dev.sessionstore.graph.LongThreads;
import dev.sessionstore.jdbc.JdbcSessionStore;
import dev.sessionstore.jdbc.StatementCounter;
import dev.sessionstore.jdbc.TestDatabase;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.checkpoint.Checkpoint;
import org.bsc.langgraph4j.serializer.std.ObjectStreamStateSerializer;
import org.bsc.langgraph4j.state.AgentState;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A graph step through the saver ({@code get} of the latest checkpoint, then a {@code put} on top of it) costs the
 * same on a thread of 10,000 checkpoints as on one of 10: counted in events read on every backend, and in SQL
 * statements on PostgreSQL, not in time. The first 10 checkpoints go through the saver's own {@code put}; the rest are
 * the same checkpoint events appended in batches ({@link LongThreads}), so that filling the long thread takes seconds.
 */
class SaverStepCostTest {

  private static final RunnableConfig THREAD = RunnableConfig.builder().threadId("long").build();
  private static final int LONG = 10_000;

  @ParameterizedTest
  @EnumSource(value = GraphBackend.class, names = {"MEMORY", "SQLITE"})
  @DisplayName("get and put read one event at 10 and at 10,000 checkpoints")
  void eventsReadAreFlat(GraphBackend backend) throws Exception {
    try (GraphBackend.Database database = backend.database()) {
      EventsReadCounter store = new EventsReadCounter(database.open());
      SessionStoreSaver saver = SessionStoreSaver.builder(store).build();
      for (int i = 1; i <= 10; i++) {
        saver.put(THREAD, checkpoint(i));
      }
      long[] atTen = step(store, saver, 10);
      fill(store, 12);
      long[] atLong = step(store, saver, LONG);
      System.out.println(backend + ": events read by get, put at 10 and 10,000 checkpoints: "
          + List.of(atTen[0], atTen[1]) + " " + List.of(atLong[0], atLong[1]));
      assertThat(atTen).containsExactly(1, 0);
      assertThat(atLong).containsExactly(atTen);
    }
  }

  @Test
  @DisplayName("get and put execute the same statements on PostgreSQL at 10 and at 10,000 checkpoints")
  void statementsAreFlat() throws Exception {
    String schema = TestDatabase.uniqueName("lg4j_cost");
    StatementCounter counter = new StatementCounter();
    try (HikariDataSource pool = GraphBackend.pool(schema, 4);
         SessionStore store = JdbcSessionStore.builder().dataSource(counter.wrap(pool)).schema(schema)
             .notifications(false).deadlineSweepInterval(Duration.ofHours(1)).build()) {
      SessionStoreSaver saver = SessionStoreSaver.builder(store).build();
      for (int i = 1; i <= 10; i++) {
        saver.put(THREAD, checkpoint(i));
      }
      long[] atTen = statements(counter, saver);
      fill(store, 12);
      long[] atLong = statements(counter, saver);
      System.out.println("PostgreSQL: statements of get, put at 10 and 10,000 checkpoints: "
          + List.of(atTen[0], atTen[1]) + " " + List.of(atLong[0], atLong[1]));
      assertThat(atTen).containsExactly(1, 5);
      assertThat(atLong).containsExactly(atTen);
    } finally {
      TestDatabase.get().execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
  }

  /** Appends checkpoints {@code from} to {@link #LONG} to the thread, as the saver's default serializer writes them. */
  private static void fill(SessionStore store, int from) throws IOException {
    ObjectStreamStateSerializer<AgentState> serializer = new ObjectStreamStateSerializer<>(AgentState::new);
    List<GraphCheckpoint> checkpoints = new ArrayList<>();
    for (int i = from; i <= LONG; i++) {
      Checkpoint checkpoint = checkpoint(i);
      checkpoints.add(new GraphCheckpoint(checkpoint.getId(), Optional.of(checkpoint.getNodeId()),
          Optional.of(checkpoint.getNextNodeId()), CheckpointState.bytes(serializer.dataToBytes(checkpoint.getState()))));
    }
    LongThreads.append(store, THREAD.threadId().orElseThrow(), checkpoints);
  }

  /** The events read by a get and by the put after it. */
  private static long[] step(EventsReadCounter store, SessionStoreSaver saver, int length) throws Exception {
    long before = store.eventsRead();
    Checkpoint latest = saver.get(THREAD).orElseThrow();
    long get = store.eventsRead() - before;
    assertThat(latest.getState()).containsEntry("step", length);
    before = store.eventsRead();
    saver.put(THREAD, checkpoint(length + 1));
    return new long[] {get, store.eventsRead() - before};
  }

  /** The statements of a get and of the put after it. */
  private static long[] statements(StatementCounter counter, SessionStoreSaver saver) throws Exception {
    long before = counter.statements();
    saver.get(THREAD).orElseThrow();
    long get = counter.statements() - before;
    before = counter.statements();
    saver.put(THREAD, checkpoint(-1));
    return new long[] {get, counter.statements() - before};
  }

  private static Checkpoint checkpoint(int step) {
    return Checkpoint.builder().state(Map.of("step", step, "messages", List.of("question " + step, "answer " + step)))
        .nodeId("agent").nextNodeId("tools").build();
  }
}
