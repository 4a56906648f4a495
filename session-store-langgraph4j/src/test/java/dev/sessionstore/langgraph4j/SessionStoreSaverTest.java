package dev.sessionstore.langgraph4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.SessionStatus;
import dev.sessionstore.SessionStore;
import dev.sessionstore.graph.CheckpointConflictException;
import dev.sessionstore.graph.CheckpointState;
import dev.sessionstore.graph.GraphBackend;
import dev.sessionstore.graph.GraphCheckpoint;
import dev.sessionstore.graph.GraphThreads;
import dev.sessionstore.graph.ThreadHead;
import dev.sessionstore.graph.UndecodableCheckpointException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.bsc.langgraph4j.CompileConfig;
import org.bsc.langgraph4j.CompiledGraph;
import org.bsc.langgraph4j.GraphInput;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.StateGraph;
import org.bsc.langgraph4j.checkpoint.BaseCheckpointSaver;
import org.bsc.langgraph4j.checkpoint.Checkpoint;
import org.bsc.langgraph4j.state.AgentState;
import org.bsc.langgraph4j.state.StateSnapshot;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link SessionStoreSaver} through LangGraph4j's own compiled {@code StateGraph}, on every backend: the scenarios of
 * LangGraph4j's saver tests and docs (interrupt before a node, state history, update state, resume) with a new store
 * and saver for each "process", and the race of two instances resuming one checkpoint.
 */
class SessionStoreSaverTest {

  private static final RunnableConfig THREAD = RunnableConfig.builder().threadId("thread-1").build();

  private static CompiledGraph<AgentState> compile(StateGraph<AgentState> workflow, SessionStore store)
      throws Exception {
    SessionStoreSaver saver = SessionStoreSaver.builder(store).stateSerializer(workflow.getStateSerializer()).build();
    return workflow.compile(CompileConfig.builder().checkpointSaver(saver).interruptBefore("approve").build());
  }

  @ParameterizedTest
  @MethodSource("dev.sessionstore.graph.GraphBackend#tested")
  @DisplayName("interrupted before a node, the graph resumes in a new process with exactly the saved state, after"
      + " updateState; the state history lists every checkpoint newest first")
  void humanInTheLoopAcrossRestarts(GraphBackend backend) throws Exception {
    StateGraph<AgentState> workflow = Graphs.approval(state -> Graphs.approve(state));
    try (GraphBackend.Database database = backend.database()) {
      CompiledGraph<AgentState> first = compile(workflow, database.open());
      first.invoke(Map.of("messages", "hi"), THREAD);
      StateSnapshot<AgentState> paused = first.getState(THREAD);
      assertThat(paused.next()).isEqualTo("approve");
      assertThat(Graphs.messages(paused.state())).containsExactly("hi", "agent");

      // a new process: a new store instance and saver on the same database
      CompiledGraph<AgentState> second = compile(workflow, database.open());
      StateSnapshot<AgentState> restored = second.getState(THREAD);
      assertThat(restored.next()).isEqualTo("approve");
      assertThat(restored.state().data()).isEqualTo(paused.state().data());
      assertThat(restored.config().checkPointId()).isEqualTo(paused.config().checkPointId());

      RunnableConfig approved = second.updateState(THREAD, Map.of("approved", "yes"));
      assertThat(second.getState(THREAD).state().value("approved")).contains("yes");

      Optional<AgentState> done = second.invoke(GraphInput.resume(), approved);
      assertThat(Graphs.messages(done.orElseThrow())).containsExactly("hi", "agent", "approve:yes", "finish");

      // a third process reads the whole history, newest first, as LangGraph4j's MemorySaver lists it
      CompiledGraph<AgentState> third = compile(workflow, database.open());
      List<StateSnapshot<AgentState>> history = List.copyOf(third.getStateHistory(THREAD));
      assertThat(history).extracting(StateSnapshot::node)
          .containsExactly("finish", "approve", "agent", "agent", "__START__");
      assertThat(Graphs.messages(history.get(0).state())).containsExactly("hi", "agent", "approve:yes", "finish");
      assertThat(history.get(2).state().value("approved")).contains("yes");
      assertThat(history.get(3).state().value("approved")).isEmpty();
    }
  }

  @ParameterizedTest
  @MethodSource("dev.sessionstore.graph.GraphBackend#tested")
  @DisplayName("two instances resuming one thread from the same checkpoint: exactly one run goes on, the other fails"
      + " with the conflict naming thread, expected and actual checkpoint")
  void twoInstancesRace(GraphBackend backend) throws Exception {
    CyclicBarrier bothResumed = new CyclicBarrier(2);
    StateGraph<AgentState> workflow = Graphs.approval(state -> {
      try {
        // both runs have read the checkpoint they resume from before either stores its next one
        bothResumed.await(10, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        // the other run already failed: go on alone
      }
      return Graphs.approve(state);
    });
    try (GraphBackend.Database database = backend.database()) {
      CompiledGraph<AgentState> setup = compile(workflow, database.open());
      setup.invoke(Map.of("messages", "hi"), THREAD);
      String resumedFrom = setup.getState(THREAD).config().checkPointId().orElseThrow();

      List<CompiledGraph<AgentState>> pods = List.of(compile(workflow, database.open()),
          compile(workflow, database.open()));
      ExecutorService pool = Executors.newFixedThreadPool(2);
      List<Object> outcomes = new ArrayList<>();
      try {
        List<Future<Object>> runs = new ArrayList<>();
        for (CompiledGraph<AgentState> pod : pods) {
          runs.add(pool.submit(() -> {
            try {
              return pod.invoke(GraphInput.resume(), THREAD).orElseThrow();
            } catch (RuntimeException e) {
              return e;
            }
          }));
        }
        for (Future<Object> run : runs) {
          outcomes.add(run.get(60, TimeUnit.SECONDS));
        }
      } finally {
        pool.shutdownNow();
      }
      List<AgentState> won = outcomes.stream().filter(AgentState.class::isInstance).map(AgentState.class::cast)
          .toList();
      List<CheckpointConflictException> lost = outcomes.stream().filter(Throwable.class::isInstance)
          .map(e -> conflictIn((Throwable) e)).toList();
      System.out.println(backend + " race: " + won.size() + " won, " + lost.size() + " lost: "
          + lost.stream().map(Throwable::getMessage).toList());
      assertThat(won).hasSize(1);
      assertThat(lost).hasSize(1);
      CheckpointConflictException conflict = lost.get(0);
      assertThat(conflict.threadId()).isEqualTo("thread-1");
      assertThat(conflict.expected().checkpointId()).contains(resumedFrom);
      assertThat(conflict.actual().checkpointId()).isNotEqualTo(Optional.of(resumedFrom));

      StateSnapshot<AgentState> after = compile(workflow, database.open()).getState(THREAD);
      assertThat(Graphs.messages(after.state())).containsExactly("hi", "agent", "approve:no", "finish");
      assertThat(Graphs.messages(won.get(0))).isEqualTo(Graphs.messages(after.state()));
    }
  }

  private static CheckpointConflictException conflictIn(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof CheckpointConflictException conflict) {
        return conflict;
      }
    }
    throw new AssertionError("the failed run's error is not a checkpoint conflict", failure);
  }

  @ParameterizedTest
  @MethodSource("dev.sessionstore.graph.GraphBackend#tested")
  @DisplayName("the saver API as LangGraph4j's saver tests use it: put, get, list newest first, replace by id,"
      + " release completing the thread and returning what was stored")
  void saverApi(GraphBackend backend) throws Exception {
    try (GraphBackend.Database database = backend.database()) {
      SessionStore store = database.open();
      BaseCheckpointSaver saver = SessionStoreSaver.builder(store).build();
      Checkpoint start = Checkpoint.builder().state(Map.of("input", "test2")).nodeId("__START__")
          .nextNodeId("agent_1").build();
      RunnableConfig put = saver.put(THREAD, start);
      assertThat(put.checkPointId()).contains(start.getId());
      Checkpoint agent = Checkpoint.builder().state(Map.of("input", "test2", "agent_1:prop1", "agent_1:test"))
          .nodeId("agent_1").nextNodeId("__END__").build();
      saver.put(THREAD, agent);

      BaseCheckpointSaver other = SessionStoreSaver.builder(database.open()).build();
      assertThat(other.list(THREAD)).extracting(Checkpoint::getId).containsExactly(agent.getId(), start.getId());
      Checkpoint last = other.get(THREAD).orElseThrow();
      assertThat(last.getNodeId()).isEqualTo("agent_1");
      assertThat(last.getNextNodeId()).isEqualTo("__END__");
      assertThat(last.getState()).isEqualTo(agent.getState());
      assertThat(other.get(RunnableConfig.builder(THREAD).checkPointId(start.getId()).build()).orElseThrow()
          .getState()).isEqualTo(Map.of("input", "test2"));
      assertThat(other.get(RunnableConfig.builder().threadId("unknown").build())).isEmpty();

      Checkpoint replacement = Checkpoint.builder().id(start.getId()).state(Map.of("input", "replaced"))
          .nodeId("__START__").nextNodeId("agent_1").build();
      other.put(RunnableConfig.builder(THREAD).checkPointId(start.getId()).build(), replacement);
      assertThat(saver.list(THREAD)).extracting(c -> c.getState().get("input")).containsExactly("test2", "replaced");

      BaseCheckpointSaver.Tag tag = saver.release(THREAD);
      assertThat(tag.threadId()).isEqualTo("thread-1");
      assertThat(tag.checkpoints()).extracting(Checkpoint::getId).containsExactly(agent.getId(), start.getId());
      assertThat(store.sessions().find("thread-1").orElseThrow().status()).isEqualTo(SessionStatus.COMPLETED);
    }
  }

  @ParameterizedTest
  @MethodSource("dev.sessionstore.graph.GraphBackend#tested")
  @DisplayName("a checkpoint the serializer cannot read fails get and list naming thread and checkpoint")
  void undecodableStateIsAnError(GraphBackend backend) throws Exception {
    try (GraphBackend.Database database = backend.database()) {
      SessionStore store = database.open();
      GraphThreads.on(store).put("thread-1", new GraphCheckpoint("garbled", Optional.of("agent"), Optional.empty(),
          CheckpointState.bytes(new byte[] {1, 2, 3})), ThreadHead.EMPTY);
      BaseCheckpointSaver saver = SessionStoreSaver.builder(store).build();
      assertThatThrownBy(() -> saver.get(THREAD)).isInstanceOfSatisfying(UndecodableCheckpointException.class, e -> {
        assertThat(e.threadId()).isEqualTo("thread-1");
        assertThat(e.checkpointId()).isEqualTo("garbled");
      });
      assertThatThrownBy(() -> saver.list(THREAD)).isInstanceOf(UndecodableCheckpointException.class)
          .hasMessageContaining("graph thread thread-1").hasMessageContaining("checkpoint garbled");
    }
  }
}
