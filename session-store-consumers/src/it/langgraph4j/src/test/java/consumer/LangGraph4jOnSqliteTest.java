package consumer;

import static org.bsc.langgraph4j.StateGraph.END;
import static org.bsc.langgraph4j.StateGraph.START;
import static org.bsc.langgraph4j.action.AsyncNodeAction.node_async;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import dev.sessionstore.langgraph4j.SessionStoreSaver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bsc.langgraph4j.CompileConfig;
import org.bsc.langgraph4j.CompiledGraph;
import org.bsc.langgraph4j.GraphInput;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.StateGraph;
import org.bsc.langgraph4j.state.AgentState;
import org.bsc.langgraph4j.state.Channel;
import org.bsc.langgraph4j.state.Channels;
import org.junit.jupiter.api.Test;

/**
 * session-store-langgraph4j as a LangGraph4j app has it, on a SQLite file under target/: a graph interrupted before
 * its approval node, and the app restarted (a new store and saver over the same file) resuming it after a human
 * approved through {@code updateState}.
 */
class LangGraph4jOnSqliteTest {

  private static final RunnableConfig THREAD = RunnableConfig.builder().threadId("order-42").build();

  private static StateGraph<AgentState> workflow() throws Exception {
    Map<String, Channel<?>> channels = Map.of("steps", Channels.<String>appender(ArrayList::new));
    return new StateGraph<>(channels, AgentState::new)
        .addNode("plan", node_async(state -> Map.of("steps", "plan")))
        .addNode("approve", node_async(state -> Map.of("steps", "approved by " + state.value("by").orElse("?"))))
        .addEdge(START, "plan")
        .addEdge("plan", "approve")
        .addEdge("approve", END);
  }

  private static CompiledGraph<AgentState> graph(SessionStore store) throws Exception {
    StateGraph<AgentState> workflow = workflow();
    SessionStoreSaver saver = SessionStoreSaver.builder(store).stateSerializer(workflow.getStateSerializer()).build();
    return workflow.compile(CompileConfig.builder().checkpointSaver(saver).interruptBefore("approve").build());
  }

  @Test
  void anInterruptedGraphResumesAfterARestart() throws Exception {
    Path file = Path.of("target", "graphs.db");
    Files.deleteIfExists(file);
    try (SessionStore store = JdbcSessionStore.builder().jdbcUrl("jdbc:sqlite:" + file).build()) {
      graph(store).invoke(Map.of("steps", "start"), THREAD);
    }
    try (SessionStore store = JdbcSessionStore.builder().jdbcUrl("jdbc:sqlite:" + file).build()) {
      CompiledGraph<AgentState> graph = graph(store);
      assertEquals("approve", graph.getState(THREAD).next());
      RunnableConfig approved = graph.updateState(THREAD, Map.of("by", "alice"));
      AgentState done = graph.invoke(GraphInput.resume(), approved).orElseThrow();
      assertEquals(List.of("start", "plan", "approved by alice"), done.value("steps").orElseThrow());
    }
  }
}
