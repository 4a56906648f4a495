package dev.sessionstore.benchmarks.sidebyside;

import com.alibaba.cloud.ai.graph.RunnableConfig;
import com.alibaba.cloud.ai.graph.checkpoint.BaseCheckpointSaver;
import com.alibaba.cloud.ai.graph.checkpoint.Checkpoint;
import com.alibaba.cloud.ai.graph.serializer.StateSerializer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A Spring AI Alibaba Graph {@link BaseCheckpointSaver} as a side of {@link GraphSteps}: each graph thread has the
 * one {@link RunnableConfig} a run would carry from node to node (its context travels with it), a step is
 * {@code get} of that config then {@code put} of the next checkpoint.
 */
final class AlibabaSaverSide implements GraphSaverSide {

  private final BaseCheckpointSaver saver;
  private final Restart restart;
  private final StateSerializer serializer;
  private final Map<String, RunnableConfig> runs = new ConcurrentHashMap<>();
  private BaseCheckpointSaver restarted;

  /**
   * @param saver      the saver measured
   * @param restart    opens another instance of the saver on the same database, for {@link #reread}
   * @param serializer the state serializer both instances use
   */
  AlibabaSaverSide(BaseCheckpointSaver saver, Restart restart, StateSerializer serializer) {
    this.saver = saver;
    this.restart = restart;
    this.serializer = serializer;
  }

  @Override
  public String step(String thread) throws Exception {
    RunnableConfig run = runs.computeIfAbsent(thread, id -> RunnableConfig.builder().threadId(id).build());
    Optional<Checkpoint> latest = saver.get(run);
    String id = UUID.randomUUID().toString();
    saver.put(run, Checkpoint.builder().id(id).nodeId(GraphSteps.NODE).nextNodeId(GraphSteps.NEXT_NODE)
        .state(GraphSteps.state(latest.map(Checkpoint::getState))).build());
    return id;
  }

  @Override
  public synchronized List<String> reread(String thread) throws Exception {
    if (restarted == null) {
      restarted = restart.open();
    }
    return restarted.list(RunnableConfig.builder().threadId(thread).build()).stream().map(Checkpoint::getId)
        .toList();
  }

  @Override
  public int stateBytes() throws Exception {
    return serializer.dataToBytes(GraphSteps.state(Optional.empty())).length;
  }

  /** Opens another instance of a saver on the same database. */
  @FunctionalInterface
  interface Restart {
    BaseCheckpointSaver open() throws Exception;
  }
}
