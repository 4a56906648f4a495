package consumer;

import static com.alibaba.cloud.ai.graph.StateGraph.END;
import static com.alibaba.cloud.ai.graph.StateGraph.START;
import static com.alibaba.cloud.ai.graph.action.AsyncNodeAction.node_async;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.alibaba.cloud.ai.graph.CompileConfig;
import com.alibaba.cloud.ai.graph.CompiledGraph;
import com.alibaba.cloud.ai.graph.KeyStrategy;
import com.alibaba.cloud.ai.graph.NodeOutput;
import com.alibaba.cloud.ai.graph.RunnableConfig;
import com.alibaba.cloud.ai.graph.StateGraph;
import com.alibaba.cloud.ai.graph.checkpoint.Checkpoint;
import com.alibaba.cloud.ai.graph.checkpoint.config.SaverConfig;
import com.alibaba.cloud.ai.graph.state.strategy.AppendStrategy;
import dev.sessionstore.SessionStore;
import dev.sessionstore.graph.CheckpointConflictException;
import dev.sessionstore.jdbc.JdbcSessionStore;
import dev.sessionstore.springai.alibaba.SessionStoreCheckpointSaver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * session-store-spring-ai-alibaba as a Spring AI Alibaba Graph app has it, on a SQLite file under target/: a graph
 * stops before the human's node, the app restarts (a new store over the same file) and resumes it with exactly the
 * saved state; a checkpoint put on what an earlier read saw fails instead of writing on a stale state.
 */
class SpringAiAlibabaOnSqliteTest {

  private static CompiledGraph graph(SessionStore store) throws Exception {
    StateGraph graph = new StateGraph(() -> Map.<String, KeyStrategy>of("log", new AppendStrategy()))
        .addNode("draft", node_async(state -> Map.of("log", "draft written")))
        .addNode("human", node_async(state -> Map.of("log", "approved")))
        .addEdge(START, "draft")
        .addEdge("draft", "human")
        .addEdge("human", END);
    return graph.compile(CompileConfig.builder()
        .saverConfig(SaverConfig.builder().register(SessionStoreCheckpointSaver.builder(store).build()).build())
        .interruptBefore("human")
        .build());
  }

  private static SessionStore open(Path file) {
    return JdbcSessionStore.builder().jdbcUrl("jdbc:sqlite:" + file).build();
  }

  @Test
  void interruptedGraphResumesAfterARestart() throws Exception {
    Path file = Path.of("target", "graph.db");
    Files.deleteIfExists(file);
    RunnableConfig thread = RunnableConfig.builder().threadId("order-42").build();
    RunnableConfig stale = RunnableConfig.builder().threadId("order-42").build();

    try (SessionStore first = open(file)) {
      List<NodeOutput> outputs = graph(first).stream(Map.of("log", "order received"), thread).collectList().block();
      assertEquals("draft", outputs.get(outputs.size() - 1).node());
      assertEquals("human", graph(first).getState(stale).next());
    }

    try (SessionStore restarted = open(file)) {
      CompiledGraph resumed = graph(restarted);
      assertEquals(List.of("order received", "draft written"), resumed.getState(thread).state().value("log").get());

      List<NodeOutput> rest = resumed.stream(null, thread.withResume()).collectList().block();

      assertEquals(END, rest.get(rest.size() - 1).node());
      assertEquals(List.of("order received", "draft written", "approved"),
          rest.get(rest.size() - 1).state().value("log").get());
    }

    try (SessionStore other = open(file)) {
      // stale read the thread before the resume above: a checkpoint put on what it read would lose that resume
      Checkpoint next = Checkpoint.builder().nodeId("human").nextNodeId(END).state(Map.of("log", List.of("late")))
          .build();
      assertThrows(CheckpointConflictException.class,
          () -> SessionStoreCheckpointSaver.builder(other).build().put(stale, next));
      assertEquals(3, SessionStoreCheckpointSaver.builder(other).build().list(thread).size());
    }
  }
}
