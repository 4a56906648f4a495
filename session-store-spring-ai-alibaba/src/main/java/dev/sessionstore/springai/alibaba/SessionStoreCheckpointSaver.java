package dev.sessionstore.springai.alibaba;

import com.alibaba.cloud.ai.graph.RunnableConfig;
import com.alibaba.cloud.ai.graph.StateGraph;
import com.alibaba.cloud.ai.graph.checkpoint.BaseCheckpointSaver;
import com.alibaba.cloud.ai.graph.checkpoint.Checkpoint;
import com.alibaba.cloud.ai.graph.serializer.StateSerializer;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.SessionStore;
import dev.sessionstore.graph.CheckpointConflictException;
import dev.sessionstore.graph.CheckpointState;
import dev.sessionstore.graph.GraphCheckpoint;
import dev.sessionstore.graph.GraphThreads;
import dev.sessionstore.graph.StoredCheckpoint;
import dev.sessionstore.graph.ThreadHead;
import dev.sessionstore.graph.UndecodableCheckpointException;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * Spring AI Alibaba Graph's {@link BaseCheckpointSaver} on any {@link SessionStore}: a graph thread is a session, a
 * checkpoint one event of its log ({@link GraphThreads}), its state in the bytes of the graph's own
 * {@link StateSerializer}. Several instances (pods, processes) can share one store and stay right.
 *
 * <pre>{@code
 * BaseCheckpointSaver saver = SessionStoreCheckpointSaver.builder(store).build();
 * CompiledGraph graph = stateGraph.compile(CompileConfig.builder()
 *     .saverConfig(SaverConfig.builder().register(saver).build()).interruptBefore("human").build());
 * }</pre>
 *
 * <h2>Many instances, one truth</h2>
 * A put appends on top of the thread's latest checkpoint as the run last saw it, and fails with a
 * {@link CheckpointConflictException} (nothing stored) when another writer put one meanwhile: of two instances
 * resuming from the same checkpoint (a retried request, a second click on "continue") exactly one goes on, the other's
 * run fails with that error. What the run saw is kept in the {@link RunnableConfig#context()} of the run, per thread:
 * {@link #get} records the thread's latest checkpoint when it reads (also when it reads an older checkpoint by id, to
 * resume or branch from it), {@link #put} records what it stored; the runtime carries the context from one call to the
 * next of a run and copies it into the configs it derives. A put whose config carries nothing for its thread (no read
 * before it) builds on the store's latest, read when the put comes. Nothing is cached in the saver: every call reads
 * the store, so another instance's put is seen by the next {@link #get} or {@link #list}.
 *
 * <h2>Cost</h2>
 * {@link #get} of the latest checkpoint reads one event, of a checkpoint by id two; a {@link #put} that appends
 * commits one step, whatever the thread's length. {@link #list} returns the whole thread, newest first, in the log's
 * order (never by timestamp), read page by page: the runtime's API is a list. A put that replaces a checkpoint by id
 * ({@code updateState}) rewrites it in place, as {@code MemorySaver} does, reading the checkpoints after it.
 *
 * <h2>Never silently skip</h2>
 * A stored checkpoint the serializer cannot read (a class that changed, bytes of another serializer) fails the read
 * that meets it with an {@link UndecodableCheckpointException} naming the thread and the checkpoint.
 *
 * <p>Thread-safe; share one instance per store and serializer. The store needs summaries and truncation
 * ({@link GraphThreads#on}).
 */
public final class SessionStoreCheckpointSaver implements BaseCheckpointSaver {

  /** The prefix of the {@link RunnableConfig#context()} keys under which a run keeps the head of each thread. */
  public static final String HEAD_CONTEXT_KEY = "dev.sessionstore.graph.head:";

  private final GraphThreads threads;
  private final StateSerializer serializer;

  private SessionStoreCheckpointSaver(Builder builder) {
    this.threads = GraphThreads.on(builder.store);
    this.serializer = builder.serializer;
  }

  /**
   * A builder of a saver on {@code store}.
   *
   * @throws InvalidArgumentException naming {@code store} if it is null
   */
  public static Builder builder(SessionStore store) {
    if (store == null) {
      throw new InvalidArgumentException("store", "must not be null");
    }
    return new Builder(store);
  }

  /**
   * Every checkpoint of the config's thread, newest first (the order of its log), as {@code MemorySaver} lists them;
   * empty for an unknown or released thread. Reads the whole thread.
   *
   * @throws UndecodableCheckpointException if a checkpoint cannot be decoded
   */
  @Override
  public Collection<Checkpoint> list(RunnableConfig config) {
    String threadId = threadId(config);
    return threads.all(threadId).stream().map(stored -> decode(threadId, stored)).toList();
  }

  /**
   * The checkpoint of {@code config.checkPointId()}, else the thread's latest; empty when there is none. Records the
   * thread's latest checkpoint in the config's context as the head the run's next put builds on.
   *
   * @throws UndecodableCheckpointException if the checkpoint read cannot be decoded
   */
  @Override
  public Optional<Checkpoint> get(RunnableConfig config) {
    String threadId = threadId(config);
    Optional<StoredCheckpoint> latest = threads.latest(threadId);
    remember(config, threadId, latest.map(StoredCheckpoint::head).orElse(ThreadHead.EMPTY));
    Optional<StoredCheckpoint> wanted = config.checkPointId().isEmpty() ? latest
        : latest.filter(stored -> stored.checkpoint().id().equals(config.checkPointId().get()))
            .or(() -> threads.find(threadId, config.checkPointId().get()));
    return wanted.map(stored -> decode(threadId, stored));
  }

  /**
   * With {@code config.checkPointId()}: replaces that checkpoint in place (same position in the thread) and returns
   * {@code config}, as {@code MemorySaver} does. Without: appends {@code checkpoint} as the thread's latest on top of
   * the head the run last saw, and returns the config with the new checkpoint's id.
   *
   * @throws CheckpointConflictException if another writer put a checkpoint on the thread since the run's head;
   *                                     nothing was stored
   * @throws NoSuchElementException      if the thread has no checkpoint {@code config.checkPointId()}, as
   *                                     {@code MemorySaver}
   * @throws IOException                 if the serializer cannot write the state
   */
  @Override
  public RunnableConfig put(RunnableConfig config, Checkpoint checkpoint) throws IOException {
    String threadId = threadId(config);
    GraphCheckpoint encoded = encode(checkpoint);
    if (config.checkPointId().isPresent()) {
      String replaced = config.checkPointId().get();
      StoredCheckpoint stored;
      try {
        stored = threads.replace(threadId, replaced, encoded);
      } catch (NotFoundException e) {
        NoSuchElementException missing = new NoSuchElementException(
            "Checkpoint with id " + replaced + " not found in graph thread " + threadId);
        missing.initCause(e);
        throw missing;
      }
      head(config, threadId).filter(head -> head.checkpointId().equals(Optional.of(replaced)))
          .ifPresent(head -> remember(config, threadId, stored.head()));
      return config;
    }
    ThreadHead parent = head(config, threadId)
        .orElseGet(() -> threads.latest(threadId).map(StoredCheckpoint::head).orElse(ThreadHead.EMPTY));
    StoredCheckpoint stored = threads.put(threadId, encoded, parent);
    remember(config, threadId, stored.head());
    return RunnableConfig.builder(config).checkPointId(checkpoint.getId()).build();
  }

  /**
   * Releases the config's thread: returns its checkpoints as stored, newest first, and empties it, as
   * {@code MemorySaver} does; the thread id can then start a new thread. One commit with the thread's expected last
   * seq: a checkpoint another writer put meanwhile is never dropped unreturned.
   *
   * @throws CheckpointConflictException    if another writer put a checkpoint while the thread was released
   * @throws UndecodableCheckpointException if a checkpoint cannot be decoded; nothing is released
   */
  @Override
  public Tag release(RunnableConfig config) {
    String threadId = threadId(config);
    List<StoredCheckpoint> released = threads.clear(threadId);
    remember(config, threadId, ThreadHead.EMPTY);
    return new Tag(threadId, released.stream().map(stored -> decode(threadId, stored)).toList());
  }

  private static String threadId(RunnableConfig config) {
    return config.threadId().orElse(THREAD_ID_DEFAULT);
  }

  private static Optional<ThreadHead> head(RunnableConfig config, String threadId) {
    return Optional.ofNullable(config.context().get(HEAD_CONTEXT_KEY + threadId))
        .filter(ThreadHead.class::isInstance).map(ThreadHead.class::cast);
  }

  private static void remember(RunnableConfig config, String threadId, ThreadHead head) {
    config.context().put(HEAD_CONTEXT_KEY + threadId, head);
  }

  private GraphCheckpoint encode(Checkpoint checkpoint) throws IOException {
    return new GraphCheckpoint(checkpoint.getId(), Optional.of(checkpoint.getNodeId()),
        Optional.of(checkpoint.getNextNodeId()), CheckpointState.bytes(serializer.dataToBytes(checkpoint.getState())));
  }

  private Checkpoint decode(String threadId, StoredCheckpoint stored) {
    GraphCheckpoint checkpoint = stored.checkpoint();
    if (!(checkpoint.state() instanceof CheckpointState.Bytes bytes)) {
      throw undecodable(threadId, checkpoint, "its state is a JSON document, not the bytes of a StateSerializer",
          null);
    }
    Map<String, Object> state;
    try {
      state = serializer.dataFromBytes(bytes.bytes());
    } catch (IOException | ClassNotFoundException | RuntimeException e) {
      throw undecodable(threadId, checkpoint, serializer.getClass().getName() + " cannot read its state: " + e, e);
    }
    String nodeId = checkpoint.nodeId()
        .orElseThrow(() -> undecodable(threadId, checkpoint, "it has no node id", null));
    String nextNodeId = checkpoint.nextNodeId()
        .orElseThrow(() -> undecodable(threadId, checkpoint, "it has no next node id", null));
    return Checkpoint.builder().id(checkpoint.id()).nodeId(nodeId).nextNodeId(nextNodeId).state(state).build();
  }

  private static UndecodableCheckpointException undecodable(String threadId, GraphCheckpoint checkpoint,
      String problem, Throwable cause) {
    return new UndecodableCheckpointException(threadId, checkpoint.id(), problem, cause);
  }

  /** A builder of {@link SessionStoreCheckpointSaver}; setters refuse null and a second call. Not thread-safe. */
  public static final class Builder {

    private final SessionStore store;
    private StateSerializer serializer;

    private Builder(SessionStore store) {
      this.store = store;
    }

    /**
     * The serializer of the checkpoints' state: the graph's own ({@code stateGraph.getStateSerializer()}).
     * Default {@link StateGraph#DEFAULT_JACKSON_SERIALIZER}, the default of a {@code StateGraph} and of Spring AI
     * Alibaba's own savers.
     *
     * @throws InvalidArgumentException naming {@code stateSerializer} if it is null or set twice
     */
    public Builder stateSerializer(StateSerializer stateSerializer) {
      if (stateSerializer == null) {
        throw new InvalidArgumentException("stateSerializer", "must not be null");
      }
      if (serializer != null) {
        throw new InvalidArgumentException("stateSerializer", "is already set");
      }
      this.serializer = stateSerializer;
      return this;
    }

    /**
     * The saver.
     *
     * @throws dev.sessionstore.UnsupportedCapabilityException if the store lacks summaries or truncation
     */
    public SessionStoreCheckpointSaver build() {
      if (serializer == null) {
        serializer = StateGraph.DEFAULT_JACKSON_SERIALIZER;
      }
      return new SessionStoreCheckpointSaver(this);
    }
  }
}
