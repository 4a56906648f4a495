package dev.sessionstore.langgraph4j;

import static org.bsc.langgraph4j.StateGraph.END;
import static org.bsc.langgraph4j.StateGraph.START;
import static org.bsc.langgraph4j.action.AsyncNodeAction.node_async;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bsc.langgraph4j.GraphStateException;
import org.bsc.langgraph4j.StateGraph;
import org.bsc.langgraph4j.action.NodeAction;
import org.bsc.langgraph4j.state.AgentState;
import org.bsc.langgraph4j.state.Channel;
import org.bsc.langgraph4j.state.Channels;

/**
 * The graph the end-to-end tests run: {@code agent → approve → finish}, each node appending its name to the
 * {@code messages} channel; a human approves before {@code approve} (the tests interrupt there).
 */
final class Graphs {

  private Graphs() {
  }

  /** The workflow, with {@code approve} as the approval node's action. */
  static StateGraph<AgentState> approval(NodeAction<AgentState> approve) {
    Map<String, Channel<?>> channels = Map.of("messages", Channels.<String>appender(ArrayList::new));
    try {
      return new StateGraph<>(channels, AgentState::new)
          .addNode("agent", node_async(state -> Map.of("messages", "agent")))
          .addNode("approve", node_async(approve))
          .addNode("finish", node_async(state -> Map.of("messages", "finish")))
          .addEdge(START, "agent")
          .addEdge("agent", "approve")
          .addEdge("approve", "finish")
          .addEdge("finish", END);
    } catch (GraphStateException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The approval node of most tests: records whether the human approved. */
  static Map<String, Object> approve(AgentState state) {
    return Map.of("messages", "approve:" + state.value("approved").orElse("no"));
  }

  /** The {@code messages} of {@code state}. */
  static List<String> messages(AgentState state) {
    return state.<List<String>>value("messages").orElse(List.of());
  }
}
