package dev.sessionstore.langgraph4j;

import dev.sessionstore.SessionStore;
import dev.sessionstore.graph.CheckpointConflictException;
import dev.sessionstore.graph.CheckpointState;
import dev.sessionstore.graph.GraphCheckpoint;
import dev.sessionstore.graph.GraphThreads;
import dev.sessionstore.graph.StoredCheckpoint;
import dev.sessionstore.graph.ThreadHead;
import dev.sessionstore.graph.ThreadHeads;
import dev.sessionstore.graph.UndecodableCheckpointException;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.checkpoint.BaseCheckpointSaver;
import org.bsc.langgraph4j.checkpoint.Checkpoint;
import org.bsc.langgraph4j.serializer.StateSerializer;
import org.bsc.langgraph4j.serializer.std.ObjectStreamStateSerializer;
import org.bsc.langgraph4j.state.AgentState;

/**
 * LangGraph4j's {@link BaseCheckpointSaver} on any {@link SessionStore}: a thread is a session, a checkpoint one event
 * of its log ({@link GraphThreads}), its state the bytes of the graph's own {@link StateSerializer}.
 *
 * <pre>{@code
 * var saver = SessionStoreSaver.builder(store).stateSerializer(workflow.getStateSerializer()).build();
 * var graph = workflow.compile(CompileConfig.builder().checkpointSaver(saver).interruptBefore("approve").build());
 * }</pre>
 *
 * <h2>Many instances, one truth</h2>
 * Nothing is cached: {@link #get} and {@link #list} read the store, so what another instance put is seen by the next
 * call. A {@link #put} without a checkpoint id stores the checkpoint on top of the one this saver last returned from
 * {@link #get} or stored for the thread (the checkpoint a run started or resumed from, then each node's), and only if
 * that is still the thread's latest: of two instances resuming one thread from the same checkpoint, exactly one
 * stores its next checkpoint; the other's put fails with {@link CheckpointConflictException} (thread, expected and
 * actual checkpoint), which the graph's stream surfaces. Resuming from a checkpoint id that is not the thread's
 * latest fails the same way at the first put: branching from history is not supported. A thread this saver has not
 * read builds on the latest stored. Concurrent runs of one thread through one saver instance share what it
 * remembers: give each concurrent run its own saver ({@link ThreadHeads}).
 *
 * <h2>Replacing</h2>
 * A {@link #put} whose config names a checkpoint id (LangGraph4j's {@code updateState} of a given checkpoint)
 * replaces that checkpoint in place, atomically ({@link GraphThreads#replace}); an unknown id is a
 * {@link dev.sessionstore.NotFoundException}.
 *
 * <h2>Cost</h2>
 * {@link #get} reads one event, {@link #put} commits one step (5 statements on PostgreSQL), whatever the thread's
 * length. {@link #list} and {@link #release} read the whole thread: LangGraph4j's API returns it whole.
 *
 * <h2>Release</h2>
 * {@link #release} completes the thread's session and returns its checkpoints as stored, newest first; they stay
 * in the store (unlike LangGraph4j's {@code MemorySaver}, which drops them) until retention removes them.
 *
 * <h2>Never silently skip</h2>
 * A checkpoint the serializer cannot read fails {@link #get} and {@link #list} with
 * {@link UndecodableCheckpointException} naming the thread and the checkpoint.
 *
 * <p>Thread-safe.
 */
public final class SessionStoreSaver implements BaseCheckpointSaver {

  private final GraphThreads threads;
  private final StateSerializer<?> serializer;
  private final ThreadHeads heads;

  private SessionStoreSaver(Builder builder) {
    this.threads = GraphThreads.on(builder.store);
    this.serializer = builder.serializer;
    this.heads = new ThreadHeads(builder.rememberedThreads);
  }

  /** A builder of a saver on {@code store}. @throws NullPointerException if {@code store} is null */
  public static Builder builder(SessionStore store) {
    return new Builder(Objects.requireNonNull(store, "store"));
  }

  /**
   * The thread's checkpoints, newest first (LangGraph4j's order), read from the store.
   *
   * @throws UndecodableCheckpointException if one cannot be decoded
   */
  @Override
  public Collection<Checkpoint> list(RunnableConfig config) {
    String threadId = threadId(config);
    return threads.all(threadId).stream().map(this::toCheckpoint).toList();
  }

  /**
   * The checkpoint the config names, else the thread's latest, read from the store; the next {@link #put} to the
   * thread builds on it.
   *
   * @throws UndecodableCheckpointException if it cannot be decoded
   */
  @Override
  public Optional<Checkpoint> get(RunnableConfig config) {
    String threadId = threadId(config);
    Optional<StoredCheckpoint> stored = config.checkPointId().isPresent()
        ? threads.find(threadId, config.checkPointId().get())
        : threads.latest(threadId);
    if (config.checkPointId().isEmpty() || stored.isPresent()) {
      heads.remember(threadId, stored.map(StoredCheckpoint::head).orElse(ThreadHead.EMPTY));
    }
    return stored.map(this::toCheckpoint);
  }

  /**
   * Stores {@code checkpoint} as the thread's latest, on top of the checkpoint this saver last read or stored for it
   * if that is still the latest; or, when the config names a checkpoint id, replaces that checkpoint in place.
   *
   * @return the config with the stored checkpoint's id (for a replacement: the config as given)
   * @throws CheckpointConflictException         if another writer put a checkpoint on the thread meanwhile
   * @throws dev.sessionstore.NotFoundException  if the config names a checkpoint the thread does not have
   * @throws IOException                         if the state serializer fails
   */
  @Override
  public RunnableConfig put(RunnableConfig config, Checkpoint checkpoint) throws Exception {
    String threadId = threadId(config);
    GraphCheckpoint graphCheckpoint = toGraphCheckpoint(checkpoint);
    if (config.checkPointId().isPresent()) {
      StoredCheckpoint replaced = threads.replace(threadId, config.checkPointId().get(), graphCheckpoint);
      heads.of(threadId).filter(head -> head.seq() == replaced.seq())
          .ifPresent(head -> heads.remember(threadId, replaced.head()));
      return config;
    }
    ThreadHead parent = heads.of(threadId)
        .orElseGet(() -> threads.latest(threadId).map(StoredCheckpoint::head).orElse(ThreadHead.EMPTY));
    StoredCheckpoint stored = threads.put(threadId, graphCheckpoint, parent);
    heads.remember(threadId, stored.head());
    return RunnableConfig.builder(config).checkPointId(checkpoint.getId()).build();
  }

  /**
   * Completes the thread's session and returns its checkpoints as stored, newest first; they stay in the store.
   *
   * @throws UndecodableCheckpointException if one cannot be decoded
   */
  @Override
  public Tag release(RunnableConfig config) throws Exception {
    String threadId = threadId(config);
    heads.forget(threadId);
    List<Checkpoint> released = threads.release(threadId).stream().map(this::toCheckpoint).toList();
    return new Tag(threadId, released);
  }

  private GraphCheckpoint toGraphCheckpoint(Checkpoint checkpoint) throws IOException {
    return new GraphCheckpoint(checkpoint.getId(), Optional.ofNullable(checkpoint.getNodeId()),
        Optional.ofNullable(checkpoint.getNextNodeId()),
        CheckpointState.bytes(serializer.dataToBytes(checkpoint.getState())));
  }

  private Checkpoint toCheckpoint(StoredCheckpoint stored) {
    GraphCheckpoint checkpoint = stored.checkpoint();
    if (!(checkpoint.state() instanceof CheckpointState.Bytes bytes)) {
      throw new UndecodableCheckpointException(stored.threadId(), checkpoint.id(),
          "its state is JSON, not the bytes of a LangGraph4j state serializer", null);
    }
    Map<String, Object> state;
    try {
      state = serializer.dataFromBytes(bytes.bytes());
    } catch (IOException | ClassNotFoundException | RuntimeException e) {
      throw new UndecodableCheckpointException(stored.threadId(), checkpoint.id(),
          "the state serializer " + serializer.getClass().getName() + " failed: " + e, e);
    }
    return Checkpoint.builder().id(checkpoint.id()).state(state).nodeId(checkpoint.nodeId().orElse(null))
        .nextNodeId(checkpoint.nextNodeId().orElse(null)).build();
  }

  /**
   * Builds a {@link SessionStoreSaver}; each setter may be called once. Not thread-safe.
   */
  public static final class Builder {

    /** The threads whose head a saver remembers unless told otherwise. */
    public static final int DEFAULT_REMEMBERED_THREADS = 10_000;

    private final SessionStore store;
    private StateSerializer<?> serializer;
    private Integer rememberedThreads;

    private Builder(SessionStore store) {
      this.store = store;
    }

    /**
     * The serializer of the states, the graph's own ({@code StateGraph.getStateSerializer()}); by default
     * LangGraph4j's {@link ObjectStreamStateSerializer}, as its {@code StateGraph} uses unless told otherwise.
     *
     * @throws NullPointerException  if {@code serializer} is null
     * @throws IllegalStateException if it was already set
     */
    public Builder stateSerializer(StateSerializer<?> serializer) {
      once("stateSerializer", this.serializer);
      this.serializer = Objects.requireNonNull(serializer, "serializer");
      return this;
    }

    /**
     * How many threads' heads the saver remembers (least recently used forgotten first; a forgotten thread's next
     * put builds on the latest stored); {@value #DEFAULT_REMEMBERED_THREADS} by default.
     *
     * @throws IllegalArgumentException if {@code threads} is below 1
     * @throws IllegalStateException    if it was already set
     */
    public Builder rememberedThreads(int threads) {
      once("rememberedThreads", this.rememberedThreads);
      if (threads < 1) {
        throw new IllegalArgumentException("rememberedThreads must be at least 1, was " + threads);
      }
      this.rememberedThreads = threads;
      return this;
    }

    /**
     * The saver.
     *
     * @throws dev.sessionstore.UnsupportedCapabilityException if the store lacks summaries or truncation
     */
    public SessionStoreSaver build() {
      if (serializer == null) {
        serializer = new ObjectStreamStateSerializer<>(AgentState::new);
      }
      if (rememberedThreads == null) {
        rememberedThreads = DEFAULT_REMEMBERED_THREADS;
      }
      return new SessionStoreSaver(this);
    }

    private static void once(String field, Object current) {
      if (current != null) {
        throw new IllegalStateException(field + " was already set; each setter may be called once");
      }
    }
  }
}
