package dev.sessionstore.springai.alibaba;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alibaba.cloud.ai.graph.CompiledGraph;
import com.alibaba.cloud.ai.graph.NodeOutput;
import com.alibaba.cloud.ai.graph.OverAllState;
import com.alibaba.cloud.ai.graph.RunnableConfig;
import com.alibaba.cloud.ai.graph.StateGraph;
import com.alibaba.cloud.ai.graph.action.InterruptionMetadata;
import com.alibaba.cloud.ai.graph.checkpoint.BaseCheckpointSaver;
import com.alibaba.cloud.ai.graph.checkpoint.Checkpoint;
import com.alibaba.cloud.ai.graph.serializer.std.ObjectStreamStateSerializer;
import com.alibaba.cloud.ai.graph.state.StateSnapshot;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.SessionStore;
import dev.sessionstore.graph.CheckpointConflictException;
import dev.sessionstore.graph.CheckpointState;
import dev.sessionstore.graph.GraphBackend;
import dev.sessionstore.graph.GraphCheckpoint;
import dev.sessionstore.graph.LongThreads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@link SessionStoreCheckpointSaver} under Spring AI Alibaba's own compiled {@code StateGraph}: a human-in-the-loop
 * interrupt resumed by a new store and saver, state history and update state, two instances resuming one checkpoint,
 * a checkpoint that cannot be decoded, release, and the same answers as the runtime's {@code MemorySaver} where the
 * README does not name a deviation. Each backend's subclass names its {@link GraphBackend}; every test runs on a
 * database of its own.
 */
abstract class CheckpointSaverContract {

  private final GraphBackend backend;
  private GraphBackend.Database database;
  SessionStore store;

  CheckpointSaverContract(GraphBackend backend) {
    this.backend = backend;
  }

  /** A second store instance over the data of {@link #store}, as another process would open it. */
  SessionStore reopenStore() {
    return database.open();
  }

  @BeforeEach
  void open() {
    database = backend.database();
    store = database.open();
  }

  @AfterEach
  void close() throws Exception {
    database.close();
  }

  static SessionStoreCheckpointSaver saver(SessionStore store) {
    return SessionStoreCheckpointSaver.builder(store).build();
  }

  static RunnableConfig thread(String threadId) {
    return RunnableConfig.builder().threadId(threadId).build();
  }

  static List<NodeOutput> run(CompiledGraph graph, Map<String, Object> inputs, RunnableConfig config) {
    return graph.stream(inputs, config).collectList().block(Duration.ofMinutes(1));
  }

  static List<String> nodes(List<NodeOutput> outputs) {
    return outputs.stream().map(NodeOutput::node).toList();
  }

  static List<String> ids(Collection<Checkpoint> checkpoints) {
    return checkpoints.stream().map(Checkpoint::getId).toList();
  }

  @Test
  @DisplayName("a graph interrupted before a node resumes through a new store and saver with exactly the saved state")
  void humanInTheLoopAcrossRestart() {
    CompiledGraph graph = WeatherGraph.compile(saver(store), true);
    RunnableConfig config = thread("trip");

    List<NodeOutput> first = run(graph, Map.of("messages", WeatherGraph.QUESTION), config);

    assertThat(nodes(first)).containsExactly(StateGraph.START, "agent", "agent");
    assertThat(first.get(first.size() - 1)).isInstanceOf(InterruptionMetadata.class);
    StateSnapshot paused = graph.getState(config);
    assertThat(paused.next()).isEqualTo("tools");
    Map<String, Object> saved = paused.state().data();
    List<String> idsBefore = ids(saver(store).list(config));

    SessionStore other = reopenStore();
    CompiledGraph resumed = WeatherGraph.compile(saver(other), true);
    assertThat(resumed.getState(config).state().data()).isEqualTo(saved);
    assertThat(ids(saver(other).list(config))).isEqualTo(idsBefore);

    List<NodeOutput> rest = run(resumed, null, config.withResume());

    assertThat(nodes(rest)).containsExactly("tools", "agent", StateGraph.END);
    assertThat(WeatherGraph.messages(rest.get(rest.size() - 1).state().data())).containsExactly(
        WeatherGraph.QUESTION, "tool_calls", "temperature in Naples is 30 degrees", WeatherGraph.ANSWER);
    assertThat(resumed.getState(config).next()).isEqualTo(StateGraph.END);
    // the first instance sees the second's checkpoints at its next read: nothing is cached per instance
    assertThat(ids(saver(store).list(config))).hasSize(4).endsWith(idsBefore.toArray(String[]::new))
        .isEqualTo(ids(saver(other).list(config)));
  }

  @Test
  @DisplayName("state history lists the checkpoints newest first; update state on an old one branches from it")
  void stateHistoryAndUpdateState() throws Exception {
    CompiledGraph graph = WeatherGraph.compile(saver(store), false);
    RunnableConfig config = thread("history");
    run(graph, Map.of("messages", WeatherGraph.QUESTION), config);

    List<StateSnapshot> history = new ArrayList<>(graph.getStateHistory(config));

    assertThat(history).extracting(StateSnapshot::node)
        .containsExactly("agent", "tools", "agent", StateGraph.START);
    assertThat(history).extracting(StateSnapshot::next)
        .containsExactly(StateGraph.END, "agent", "tools", "agent");
    StateSnapshot oldest = history.get(history.size() - 1);
    assertThat(WeatherGraph.messages(oldest.state().data())).containsExactly(WeatherGraph.QUESTION);

    RunnableConfig branch = graph.updateState(oldest.config(), Map.of("messages", "i'm bartolo"));
    List<NodeOutput> replay = run(graph, null, branch.withResume());

    assertThat(nodes(replay)).containsExactly("agent", StateGraph.END);
    assertThat(WeatherGraph.messages(replay.get(0).state().data()))
        .containsExactly(WeatherGraph.QUESTION, "i'm bartolo", "Hi bartolo, nice to meet you too!");
    assertThat(saver(store).get(branch)).map(Checkpoint::getState).map(WeatherGraph::messages)
        .contains(List.of(WeatherGraph.QUESTION, "i'm bartolo"));
  }

  @Test
  @DisplayName("two instances resuming the same checkpoint: exactly one put wins, the other fails naming the thread")
  void twoInstancesResumeTheSameCheckpoint() throws Exception {
    RunnableConfig config = thread("race");
    run(WeatherGraph.compile(saver(store), true), Map.of("messages", WeatherGraph.QUESTION), config);
    List<String> before = ids(saver(store).list(config));
    CyclicBarrier bothRead = new CyclicBarrier(2);
    Runnable holdUntilBothRead = () -> {
      try {
        bothRead.await(30, TimeUnit.SECONDS);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    };
    SessionStore other = reopenStore();
    ExecutorService pods = Executors.newFixedThreadPool(2);
    try {
      List<CompletableFuture<List<NodeOutput>>> resumes = new ArrayList<>();
      for (SessionStore pod : List.of(store, other)) {
        CompiledGraph graph = WeatherGraph.compile(saver(pod), true, holdUntilBothRead);
        resumes.add(CompletableFuture.supplyAsync(() -> run(graph, null, thread("race").withResume()), pods));
      }
      List<List<NodeOutput>> won = new ArrayList<>();
      List<Throwable> lost = new ArrayList<>();
      for (CompletableFuture<List<NodeOutput>> resume : resumes) {
        try {
          won.add(resume.join());
        } catch (CompletionException e) {
          lost.add(e.getCause());
        }
      }

      assertThat(won).hasSize(1);
      assertThat(lost).hasSize(1);
      assertThat(nodes(won.get(0))).containsExactly("tools", "agent", StateGraph.END);
      assertThat(lost.get(0)).satisfies(CheckpointSaverContract::isStaleCheckpointError);
      List<String> after = ids(saver(other).list(config));
      assertThat(after).hasSize(before.size() + 2).endsWith(before.toArray(String[]::new));
      assertThat(WeatherGraph.messages(saver(store).get(config).orElseThrow().getState())).containsExactly(
          WeatherGraph.QUESTION, "tool_calls", "temperature in Naples is 30 degrees", WeatherGraph.ANSWER);
    } finally {
      pods.shutdownNow();
    }
  }

  /** The loser's error, somewhere in the runtime's wrapping: the saver's conflict naming thread and positions. */
  static void isStaleCheckpointError(Throwable error) {
    Throwable cause = error;
    while (cause != null && !(cause instanceof CheckpointConflictException)) {
      cause = cause.getCause();
    }
    assertThat(cause).as("a CheckpointConflictException in %s", error).isNotNull();
    assertThat(cause.getMessage()).contains("graph thread race").contains("the put was built on checkpoint");
  }

  @Test
  @DisplayName("a put on top of a checkpoint another instance has passed fails and stores nothing")
  void putOnAStaleReadFails() throws Exception {
    SessionStoreCheckpointSaver first = saver(store);
    RunnableConfig config = thread("stale");
    first.put(config, checkpoint("a"));
    RunnableConfig reader = thread("stale");
    assertThat(first.get(reader)).map(Checkpoint::getNodeId).contains("a");
    first.put(thread("stale"), checkpoint("b"));

    assertThatThrownBy(() -> first.put(reader, checkpoint("c"))).isInstanceOf(CheckpointConflictException.class)
        .hasMessageContaining("graph thread stale");

    assertThat(first.list(config)).extracting(Checkpoint::getNodeId).containsExactly("b", "a");
  }

  @Test
  @DisplayName("a checkpoint that cannot be decoded is an error naming the thread and the checkpoint")
  void undecodableCheckpointIsAnError() throws Exception {
    SessionStoreCheckpointSaver javaSerialized = SessionStoreCheckpointSaver.builder(store)
        .stateSerializer(new ObjectStreamStateSerializer(OverAllState::new)).build();
    RunnableConfig config = thread("old-format");
    Checkpoint written = checkpoint("a");
    javaSerialized.put(config, written);
    SessionStoreCheckpointSaver json = SessionStoreCheckpointSaver.builder(store)
        .stateSerializer(StateGraph.DEFAULT_JACKSON_SERIALIZER).build();

    assertThatThrownBy(() -> json.get(config)).hasMessageContaining("graph thread old-format")
        .hasMessageContaining(written.getId());
    assertThatThrownBy(() -> json.list(config)).hasMessageContaining("graph thread old-format")
        .hasMessageContaining(written.getId());
    assertThat(javaSerialized.get(config)).map(Checkpoint::getState).contains(written.getState());
  }

  @Test
  @DisplayName("put, replace by id, get by id, list and release answer as the runtime's MemorySaver does")
  void sameAnswersAsMemorySaver() throws Exception {
    BaseCheckpointSaver ours = saver(store);
    BaseCheckpointSaver theirs = new com.alibaba.cloud.ai.graph.checkpoint.savers.MemorySaver();
    Checkpoint a = checkpoint("a");
    Checkpoint b = checkpoint("b");
    Checkpoint c = checkpoint("c");
    Checkpoint bReplaced = Checkpoint.builder().state(Map.of("messages", List.of("replaced"))).nodeId("b2")
        .nextNodeId("c").build();
    for (BaseCheckpointSaver saver : List.of(ours, theirs)) {
      RunnableConfig afterA = saver.put(thread("same"), a);
      assertThat(afterA.checkPointId()).contains(a.getId());
      RunnableConfig afterB = saver.put(thread("same"), b);
      saver.put(thread("same"), c);
      RunnableConfig replaced = saver.put(afterB, bReplaced);
      assertThat(replaced.checkPointId()).contains(b.getId());
    }
    RunnableConfig config = thread("same");

    assertThat(describe(ours.list(config))).isEqualTo(describe(theirs.list(config)));
    assertThat(ours.get(config).map(CheckpointSaverContract::describe))
        .isEqualTo(theirs.get(config).map(CheckpointSaverContract::describe));
    RunnableConfig byId = RunnableConfig.builder().threadId("same").checkPointId(a.getId()).build();
    assertThat(ours.get(byId).map(CheckpointSaverContract::describe))
        .isEqualTo(theirs.get(byId).map(CheckpointSaverContract::describe));
    RunnableConfig unknown = RunnableConfig.builder().threadId("same").checkPointId("no-such-id").build();
    assertThat(ours.get(unknown)).isEmpty();
    assertThat(theirs.get(unknown)).isEmpty();
    assertThatThrownBy(() -> ours.put(unknown, checkpoint("x"))).hasMessageContaining("no-such-id");
    assertThatThrownBy(() -> theirs.put(unknown, checkpoint("x"))).hasMessageContaining("no-such-id");

    BaseCheckpointSaver.Tag ourTag = ours.release(config);
    BaseCheckpointSaver.Tag theirTag = theirs.release(config);

    assertThat(ourTag.threadId()).isEqualTo(theirTag.threadId()).isEqualTo("same");
    assertThat(describe(ourTag.checkpoints())).isEqualTo(describe(theirTag.checkpoints()));
    assertThat(ours.list(config)).isEmpty();
    assertThat(theirs.list(config)).isEmpty();
  }

  @Test
  @DisplayName("the store's retention keeps the latest checkpoints of a thread; the saver goes on after it")
  void retentionKeepsTheLatestCheckpoints() throws Exception {
    SessionStoreCheckpointSaver saver = saver(store);
    for (String node : List.of("a", "b", "c", "d", "e")) {
      saver.put(thread("kept"), checkpoint(node));
    }

    store.retention().apply(RetentionPolicy.builder().keepEventsPerSession(2).build());

    RunnableConfig config = thread("kept");
    assertThat(saver.list(config)).extracting(Checkpoint::getNodeId).containsExactly("e", "d");
    assertThat(saver.get(config)).map(Checkpoint::getNodeId).contains("e");
    saver.put(config, checkpoint("f"));
    assertThat(saver.list(thread("kept"))).extracting(Checkpoint::getNodeId).containsExactly("f", "e", "d");
    assertThat(saver.release(config).checkpoints()).extracting(Checkpoint::getNodeId)
        .containsExactly("f", "e", "d");
    assertThat(saver.list(thread("kept"))).isEmpty();
    saver.put(config, checkpoint("g"));
    assertThat(saver.list(thread("kept"))).extracting(Checkpoint::getNodeId).containsExactly("g");
  }

  @Test
  @DisplayName("a graph run with releaseThread ends with the thread's checkpoints; the thread id then starts afresh")
  void releaseThreadAtTheEndOfARun() {
    CompiledGraph graph = WeatherGraph.compileReleasing(saver(store));
    RunnableConfig config = thread("released");

    List<NodeOutput> outputs = run(graph, Map.of("messages", WeatherGraph.QUESTION), config);

    assertThat(nodes(outputs)).containsExactly(StateGraph.START, "agent", "tools", "agent", StateGraph.END);
    assertThat(saver(store).list(config)).isEmpty();
    List<NodeOutput> again = run(graph, Map.of("messages", WeatherGraph.QUESTION), thread("released"));
    assertThat(WeatherGraph.messages(again.get(again.size() - 1).state().data())).containsExactly(
        WeatherGraph.QUESTION, "tool_calls", "temperature in Naples is 30 degrees", WeatherGraph.ANSWER);
  }

  @Test
  @DisplayName("a thread without a thread id is the runtime's default thread")
  void defaultThread() throws Exception {
    SessionStoreCheckpointSaver saver = saver(store);
    saver.put(RunnableConfig.builder().build(), checkpoint("a"));

    assertThat(saver.get(thread(BaseCheckpointSaver.THREAD_ID_DEFAULT))).map(Checkpoint::getNodeId).contains("a");
  }

  @Test
  @DisplayName("a graph step (resume: get latest, two puts) reads the same at 10 and 10,000 checkpoints, counted")
  void flatCostAtTenThousandCheckpoints() throws Exception {
    ReadCounter counter = new ReadCounter();
    SessionStore counted = counter.wrap(store);

    long[] atTen = stepCost(store, counted, counter, () -> 0, "short", 10);
    long[] atTenThousand = stepCost(store, counted, counter, () -> 0, "long", 10_000);

    System.out.printf("%s: a resumed step at 10 / 10,000 checkpoints: %d / %d store calls, %d / %d records%n",
        getClass().getSimpleName(), atTen[0], atTenThousand[0], atTen[1], atTenThousand[1]);
    assertThat(atTenThousand).containsExactly(atTen);
    // the resume's get reads the latest checkpoint (one event); each put commits one step
    assertThat(atTen[0]).as("store calls of the step").isEqualTo(3);
    assertThat(atTen[1]).as("records the step's calls returned").isEqualTo(3);
    assertThat(saver(store).list(thread("long"))).hasSize(10_000)
        .extracting(Checkpoint::getNodeId).startsWith("agent", "tools", "agent", StateGraph.START, "filler");
  }

  /**
   * Store calls, records returned and {@code statements} executed by one resumed step (get the latest checkpoint,
   * run the tools and the agent, put two checkpoints) through {@code counted} on a thread of {@code length}
   * checkpoints: {@code length - 4} fillers, then a run to the interrupt before the tools.
   */
  static long[] stepCost(SessionStore store, SessionStore counted, ReadCounter counter, LongSupplier statements,
      String threadId, int length) throws Exception {
    List<GraphCheckpoint> fillers = new ArrayList<>();
    for (int i = 0; i < length - 4; i++) {
      Checkpoint filler = checkpoint("filler");
      fillers.add(new GraphCheckpoint(filler.getId(), Optional.of(filler.getNodeId()),
          Optional.of(filler.getNextNodeId()),
          CheckpointState.bytes(StateGraph.DEFAULT_JACKSON_SERIALIZER.dataToBytes(filler.getState()))));
    }
    LongThreads.append(store, threadId, fillers);
    CompiledGraph graph = WeatherGraph.compile(saver(counted), true);
    run(graph, Map.of("messages", WeatherGraph.QUESTION), thread(threadId));
    assertThat(saver(store).get(thread(threadId))).map(Checkpoint::getNextNodeId).contains("tools");
    long calls = counter.calls();
    long records = counter.records();
    long executed = statements.getAsLong();

    List<NodeOutput> step = run(graph, null, thread(threadId).withResume());

    assertThat(nodes(step)).containsExactly("tools", "agent", StateGraph.END);
    return new long[] {counter.calls() - calls, counter.records() - records, statements.getAsLong() - executed};
  }

  static Checkpoint checkpoint(String node) {
    return Checkpoint.builder().state(Map.of("messages", List.of("at " + node))).nodeId(node).nextNodeId("next")
        .build();
  }

  static List<String> describe(Collection<Checkpoint> checkpoints) {
    return checkpoints.stream().map(CheckpointSaverContract::describe).toList();
  }

  static String describe(Checkpoint checkpoint) {
    return checkpoint.getId() + " " + checkpoint.getNodeId() + ">" + checkpoint.getNextNodeId() + " "
        + checkpoint.getState();
  }
}
