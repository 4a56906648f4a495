package dev.sessionstore.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.SessionStatus;
import dev.sessionstore.SessionStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link GraphThreads} on every backend: the mapping and each guarantee of its javadoc. */
class GraphThreadsTest {

  private static GraphCheckpoint checkpoint(String id, String state) {
    return new GraphCheckpoint(id, Optional.of("node-" + id), Optional.of("next-" + id),
        CheckpointState.bytes(state.getBytes(StandardCharsets.UTF_8)));
  }

  private static String state(StoredCheckpoint stored) {
    return new String(((CheckpointState.Bytes) stored.checkpoint().state()).bytes(), StandardCharsets.UTF_8);
  }

  @ParameterizedTest
  @MethodSource("dev.sessionstore.graph.GraphBackend#tested")
  @DisplayName("puts append in order; latest, find and pages read them back as stored, from another store instance")
  void putsAndReads(GraphBackend backend) throws Exception {
    try (GraphBackend.Database database = backend.database()) {
      GraphThreads threads = GraphThreads.on(database.open());
      ThreadHead head = ThreadHead.EMPTY;
      for (int i = 1; i <= 5; i++) {
        StoredCheckpoint stored = threads.put("t", checkpoint("c" + i, "state " + i), head);
        assertThat(stored.seq()).isEqualTo(i);
        head = stored.head();
      }
      GraphThreads other = GraphThreads.on(database.open());
      StoredCheckpoint latest = other.latest("t").orElseThrow();
      assertThat(latest.checkpoint()).isEqualTo(checkpoint("c5", "state 5"));
      assertThat(other.find("t", "c2").map(GraphThreadsTest::state)).contains("state 2");
      assertThat(other.find("t", "c9")).isEmpty();
      assertThat(other.latest("unknown")).isEmpty();

      CheckpointPage first = other.page("t", OptionalLong.empty(), 2);
      assertThat(first.items()).extracting(s -> s.checkpoint().id()).containsExactly("c5", "c4");
      CheckpointPage second = other.page("t", first.nextBefore(), 2);
      assertThat(second.items()).extracting(s -> s.checkpoint().id()).containsExactly("c3", "c2");
      CheckpointPage third = other.page("t", second.nextBefore(), 2);
      assertThat(third.items()).extracting(s -> s.checkpoint().id()).containsExactly("c1");
      assertThat(third.nextBefore()).isEmpty();
      assertThat(other.all("t")).extracting(s -> s.checkpoint().id()).containsExactly("c5", "c4", "c3", "c2", "c1");
    }
  }

  @ParameterizedTest
  @MethodSource("dev.sessionstore.graph.GraphBackend#tested")
  @DisplayName("JSON and binary states come back exactly, the binary one byte for byte")
  void statesAreLossless(GraphBackend backend) throws Exception {
    try (GraphBackend.Database database = backend.database()) {
      GraphThreads threads = GraphThreads.on(database.open());
      byte[] bytes = new byte[256];
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] = (byte) i;
      }
      GraphCheckpoint binary = new GraphCheckpoint("b", Optional.empty(), Optional.empty(),
          CheckpointState.bytes(bytes));
      GraphCheckpoint json = new GraphCheckpoint("j", Optional.of("n"), Optional.empty(),
          CheckpointState.json(Json.of("{\"messages\":[\"hi\",{\"n\":12345678901234567890123}],\"done\":false}")));
      StoredCheckpoint first = threads.put("t", binary, ThreadHead.EMPTY);
      threads.put("t", json, first.head());
      GraphThreads other = GraphThreads.on(database.open());
      assertThat(other.find("t", "b").orElseThrow().checkpoint()).isEqualTo(binary);
      assertThat(other.find("t", "j").orElseThrow().checkpoint()).isEqualTo(json);
    }
  }

  @ParameterizedTest
  @MethodSource("dev.sessionstore.graph.GraphBackend#tested")
  @DisplayName("a put on a checkpoint that is no longer the latest fails naming thread, expected and actual; nothing"
      + " stored")
  void stalePutFails(GraphBackend backend) throws Exception {
    try (GraphBackend.Database database = backend.database()) {
      GraphThreads threads = GraphThreads.on(database.open());
      StoredCheckpoint c1 = threads.put("t", checkpoint("c1", "1"), ThreadHead.EMPTY);
      threads.put("t", checkpoint("c2", "2"), c1.head());

      assertThatThrownBy(() -> threads.put("t", checkpoint("c3", "3"), c1.head()))
          .isInstanceOfSatisfying(CheckpointConflictException.class, e -> {
            assertThat(e.threadId()).isEqualTo("t");
            assertThat(e.expected()).isEqualTo(new ThreadHead(1, "c1"));
            assertThat(e.actual()).isEqualTo(new ThreadHead(2, "c2"));
            assertThat(e.expectedSeq()).isEqualTo(1);
            assertThat(e.actualSeq()).isEqualTo(2);
          })
          .hasMessageContaining("graph thread t").hasMessageContaining("checkpoint c1 (seq 1)")
          .hasMessageContaining("checkpoint c2 (seq 2)");
      assertThatThrownBy(() -> threads.put("t", checkpoint("c3", "3"), ThreadHead.EMPTY))
          .isInstanceOf(CheckpointConflictException.class).hasMessageContaining("built on no checkpoint");
      assertThat(threads.all("t")).extracting(s -> s.checkpoint().id()).containsExactly("c2", "c1");
    }
  }

  @ParameterizedTest
  @MethodSource("dev.sessionstore.graph.GraphBackend#tested")
  @DisplayName("of eight instances putting on one checkpoint at once, exactly one wins; a retried put of the winner"
      + " returns it as stored")
  void oneWinnerOfARace(GraphBackend backend) throws Exception {
    try (GraphBackend.Database database = backend.database()) {
      StoredCheckpoint base = GraphThreads.on(database.open()).put("t", checkpoint("base", "0"), ThreadHead.EMPTY);
      int writers = 8;
      List<GraphThreads> instances = new ArrayList<>();
      for (int i = 0; i < writers; i++) {
        instances.add(GraphThreads.on(database.open()));
      }
      CountDownLatch start = new CountDownLatch(1);
      ExecutorService pool = Executors.newFixedThreadPool(writers);
      try {
        List<Future<Object>> outcomes = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
          GraphThreads instance = instances.get(i);
          String id = "w" + i;
          Callable<Object> put = () -> {
            start.await();
            try {
              return instance.put("t", checkpoint(id, id), base.head());
            } catch (CheckpointConflictException e) {
              return e;
            }
          };
          outcomes.add(pool.submit(put));
        }
        start.countDown();
        List<StoredCheckpoint> won = new ArrayList<>();
        List<CheckpointConflictException> lost = new ArrayList<>();
        for (Future<Object> outcome : outcomes) {
          Object value = outcome.get();
          if (value instanceof StoredCheckpoint stored) {
            won.add(stored);
          } else {
            lost.add((CheckpointConflictException) value);
          }
        }
        assertThat(won).hasSize(1);
        assertThat(lost).hasSize(writers - 1)
            .allSatisfy(e -> assertThat(e.actual()).isEqualTo(won.get(0).head()));
        GraphThreads reader = GraphThreads.on(database.open());
        assertThat(reader.all("t")).extracting(s -> s.checkpoint().id())
            .containsExactly(won.get(0).checkpoint().id(), "base");
        StoredCheckpoint retried = instances.get(0).put("t", won.get(0).checkpoint(), base.head());
        assertThat(retried).isEqualTo(won.get(0));
      } finally {
        pool.shutdownNow();
      }
    }
  }

  @ParameterizedTest
  @MethodSource("dev.sessionstore.graph.GraphBackend#tested")
  @DisplayName("replace swaps a checkpoint in place, the latest or an earlier one, keeping the order and the rest")
  void replaceInPlace(GraphBackend backend) throws Exception {
    try (GraphBackend.Database database = backend.database()) {
      GraphThreads threads = GraphThreads.on(database.open());
      ThreadHead head = ThreadHead.EMPTY;
      for (int i = 1; i <= 4; i++) {
        head = threads.put("t", checkpoint("c" + i, "" + i), head).head();
      }
      StoredCheckpoint latest = threads.replace("t", "c4", checkpoint("c4", "4 updated"));
      assertThat(latest.seq()).isEqualTo(4);
      StoredCheckpoint earlier = threads.replace("t", "c2", checkpoint("c2", "2 updated"));
      assertThat(earlier.seq()).isEqualTo(2);
      List<StoredCheckpoint> all = GraphThreads.on(database.open()).all("t");
      assertThat(all).extracting(s -> s.checkpoint().id()).containsExactly("c4", "c3", "c2", "c1");
      assertThat(all).extracting(GraphThreadsTest::state).containsExactly("4 updated", "3", "2 updated", "1");
      assertThat(all).extracting(StoredCheckpoint::seq).containsExactly(4L, 3L, 2L, 1L);
      // a writer whose head is the replaced latest still builds on it: same id, same seq
      assertThat(threads.put("t", checkpoint("c5", "5"), head).seq()).isEqualTo(5);
      assertThatThrownBy(() -> threads.replace("t", "nope", checkpoint("x", "x")))
          .isInstanceOf(NotFoundException.class).hasMessageContaining("nope").hasMessageContaining("graph thread t");
    }
  }

  @ParameterizedTest
  @MethodSource("dev.sessionstore.graph.GraphBackend#tested")
  @DisplayName("a checkpoint that cannot be decoded fails the read naming thread and checkpoint, never skipped")
  void undecodableIsAnError(GraphBackend backend) throws Exception {
    try (GraphBackend.Database database = backend.database()) {
      SessionStore store = database.open();
      GraphThreads threads = GraphThreads.on(store);
      StoredCheckpoint c1 = threads.put("t", checkpoint("c1", "1"), ThreadHead.EMPTY);
      store.events().append("t", NewEvent.of(CheckpointEvents.TYPE, Json.of("{\"stateBase64\":\"%%%\"}"))
          .withId("broken"), c1.seq());
      assertThatThrownBy(() -> threads.latest("t")).isInstanceOfSatisfying(UndecodableCheckpointException.class, e -> {
        assertThat(e.threadId()).isEqualTo("t");
        assertThat(e.checkpointId()).isEqualTo("broken");
      }).hasMessageContaining("graph thread t").hasMessageContaining("checkpoint broken");
      assertThatThrownBy(() -> threads.all("t")).isInstanceOf(UndecodableCheckpointException.class);
      store.events().append("t", NewEvent.of("chat.message", Json.of("{}")).withId("other"));
      assertThatThrownBy(() -> threads.latest("t")).isInstanceOf(UndecodableCheckpointException.class)
          .hasMessageContaining("checkpoint other").hasMessageContaining("type chat.message");
    }
  }

  @ParameterizedTest
  @MethodSource("dev.sessionstore.graph.GraphBackend#tested")
  @DisplayName("release completes the thread's session and returns its checkpoints as stored")
  void releaseClosesTheThread(GraphBackend backend) throws Exception {
    try (GraphBackend.Database database = backend.database()) {
      SessionStore store = database.open();
      GraphThreads threads = GraphThreads.on(store);
      StoredCheckpoint c1 = threads.put("t", checkpoint("c1", "1"), ThreadHead.EMPTY);
      StoredCheckpoint c2 = threads.put("t", checkpoint("c2", "2"), c1.head());
      assertThat(threads.release("t")).containsExactly(c2, c1);
      assertThat(store.sessions().find("t").orElseThrow().status()).isEqualTo(SessionStatus.COMPLETED);
      assertThat(threads.release("unknown")).isEmpty();
      assertThat(store.sessions().find("unknown")).isEmpty();
    }
  }

  @ParameterizedTest
  @MethodSource("dev.sessionstore.graph.GraphBackend#tested")
  @DisplayName("clear returns the thread's checkpoints as stored and empties it, also after retention; puts start"
      + " afresh; an unknown thread stays unknown")
  void clearEmptiesTheThread(GraphBackend backend) throws Exception {
    try (GraphBackend.Database database = backend.database()) {
      SessionStore store = database.open();
      GraphThreads threads = GraphThreads.on(store);
      ThreadHead head = ThreadHead.EMPTY;
      List<StoredCheckpoint> stored = new ArrayList<>();
      for (int i = 1; i <= 5; i++) {
        StoredCheckpoint put = threads.put("t", checkpoint("c" + i, "" + i), head);
        stored.add(0, put);
        head = put.head();
      }
      store.retention().apply(RetentionPolicy.builder().keepEventsPerSession(3).build());

      assertThat(threads.clear("t")).containsExactlyElementsOf(stored.subList(0, 3));

      assertThat(threads.latest("t")).isEmpty();
      assertThat(threads.all("t")).isEmpty();
      StoredCheckpoint again = threads.put("t", checkpoint("c1", "new 1"), ThreadHead.EMPTY);
      assertThat(again.seq()).isEqualTo(1);
      assertThat(threads.all("t")).containsExactly(again);
      assertThat(threads.clear("unknown")).isEmpty();
      assertThat(store.sessions().find("unknown")).isEmpty();
    }
  }

  @ParameterizedTest
  @MethodSource("dev.sessionstore.graph.GraphBackend#tested")
  @DisplayName("retention keeping 3 events per session keeps each thread's 3 latest checkpoints; puts go on")
  void retentionKeepsTheLatestCheckpoints(GraphBackend backend) throws Exception {
    try (GraphBackend.Database database = backend.database()) {
      SessionStore store = database.open();
      GraphThreads threads = GraphThreads.on(store);
      ThreadHead head = ThreadHead.EMPTY;
      for (int i = 1; i <= 10; i++) {
        head = threads.put("t", checkpoint("c" + i, "" + i), head).head();
      }
      store.retention().apply(RetentionPolicy.builder().keepEventsPerSession(3).build());
      assertThat(threads.all("t")).extracting(s -> s.checkpoint().id()).containsExactly("c10", "c9", "c8");
      assertThat(threads.latest("t").orElseThrow().seq()).isEqualTo(10);
      assertThat(threads.put("t", checkpoint("c11", "11"), head).seq()).isEqualTo(11);
    }
  }
}
