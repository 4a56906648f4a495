package dev.sessionstore.springai.alibaba;

import static com.alibaba.cloud.ai.graph.StateGraph.END;
import static com.alibaba.cloud.ai.graph.StateGraph.START;
import static com.alibaba.cloud.ai.graph.action.AsyncEdgeAction.edge_async;
import static com.alibaba.cloud.ai.graph.action.AsyncNodeAction.node_async;

import com.alibaba.cloud.ai.graph.CompileConfig;
import com.alibaba.cloud.ai.graph.CompiledGraph;
import com.alibaba.cloud.ai.graph.KeyStrategy;
import com.alibaba.cloud.ai.graph.StateGraph;
import com.alibaba.cloud.ai.graph.checkpoint.BaseCheckpointSaver;
import com.alibaba.cloud.ai.graph.checkpoint.config.SaverConfig;
import com.alibaba.cloud.ai.graph.exception.GraphStateException;
import com.alibaba.cloud.ai.graph.state.strategy.AppendStrategy;
import java.util.List;
import java.util.Map;

/**
 * The graph of Spring AI Alibaba's own checkpoint tests ({@code StateGraphMemorySaverTest}): an agent that asks for
 * the weather tool, the tool, and the agent again, which answers; the messages append. {@link #beforeTools} runs in
 * the tools node before it answers, so that a test can hold two instances there.
 */
final class WeatherGraph {

  /** The question the graph starts with. */
  static final String QUESTION = "weather in Naples?";
  /** The agent's last answer once the tool has run. */
  static final String ANSWER = "weather in Naples is sunny";

  private final Runnable beforeTools;

  private WeatherGraph(Runnable beforeTools) {
    this.beforeTools = beforeTools;
  }

  /** The graph, interrupted before the tools node when {@code interrupt} is set, its checkpoints in {@code saver}. */
  static CompiledGraph compile(BaseCheckpointSaver saver, boolean interrupt) {
    return compile(saver, interrupt, () -> { });
  }

  /** As {@link #compile(BaseCheckpointSaver, boolean)}, running {@code beforeTools} in the tools node. */
  static CompiledGraph compile(BaseCheckpointSaver saver, boolean interrupt, Runnable beforeTools) {
    CompileConfig.Builder config = CompileConfig.builder()
        .saverConfig(SaverConfig.builder().register(saver).build());
    if (interrupt) {
      config.interruptBefore("tools");
    }
    return compile(config, beforeTools);
  }

  /** The graph, without interrupt, releasing its thread from {@code saver} when a run ends. */
  static CompiledGraph compileReleasing(BaseCheckpointSaver saver) {
    return compile(CompileConfig.builder().saverConfig(SaverConfig.builder().register(saver).build())
        .releaseThread(true), () -> { });
  }

  private static CompiledGraph compile(CompileConfig.Builder config, Runnable beforeTools) {
    try {
      return new WeatherGraph(beforeTools).graph().compile(config.build());
    } catch (GraphStateException e) {
      throw new IllegalStateException(e);
    }
  }

  private StateGraph graph() throws GraphStateException {
    return new StateGraph(() -> Map.<String, KeyStrategy>of("messages", new AppendStrategy()))
        .addNode("agent", node_async(state -> Map.of("messages", agent(messages(state.data())))))
        .addNode("tools", node_async(state -> {
          beforeTools.run();
          return Map.of("messages", "temperature in Naples is 30 degrees");
        }))
        .addEdge(START, "agent")
        .addConditionalEdges("agent", edge_async(state -> last(messages(state.data())).equals("tool_calls") ? "tools"
            : END), Map.of("tools", "tools", END, END))
        .addEdge("tools", "agent");
  }

  private static String agent(List<String> messages) {
    String last = last(messages);
    if (last.contains("temperature")) {
      return ANSWER;
    }
    if (last.contains("weather")) {
      return "tool_calls";
    }
    if (last.contains("bartolo")) {
      return "Hi bartolo, nice to meet you too!";
    }
    throw new IllegalStateException("unknown message: " + last);
  }

  /** The messages of a state. */
  @SuppressWarnings("unchecked")
  static List<String> messages(Map<String, Object> state) {
    return (List<String>) state.get("messages");
  }

  private static String last(List<String> messages) {
    return messages.get(messages.size() - 1);
  }
}
