package dev.sessionstore.graph;

import dev.sessionstore.Capability;
import dev.sessionstore.Event;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Limits;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.SeqConflictException;
import dev.sessionstore.SessionStatus;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Step;
import dev.sessionstore.StepResult;
import dev.sessionstore.UnsupportedCapabilityException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The checkpoints of agent-graph threads on a {@link SessionStore}, independent of the graph runtime.
 *
 * <h2>Mapping</h2>
 * A thread is a session whose id is the thread id; a checkpoint is one event of its log, with the checkpoint id as
 * event id and its node, next node and state in the payload ({@link CheckpointState}: JSON, or the serializer's bytes
 * as base64). The log's order (seq) is the checkpoints' order, never a timestamp. Each checkpoint is covered by a
 * summary of its own, so it is one chapter of the log: the store's {@link dev.sessionstore.Retention} with
 * {@code RetentionPolicy.builder().keepEventsPerSession(n)} keeps the latest {@code n} checkpoints of every thread, and
 * {@code deleteSessionsIdleFor(age)} removes idle threads, each without reading whole threads.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Many instances, one truth.</b> {@link #put} names the checkpoint it builds on ({@link ThreadHead}) and
 *       stores only if that is still the thread's latest, in the same commit (the store's expected last seq): of
 *       any number of instances putting on top of one checkpoint, exactly one wins and the others get a
 *       {@link CheckpointConflictException}. {@link #replace} is one commit too. Nothing is cached: every read goes
 *       to the store, so what another instance put is seen by the next read.</li>
 *   <li><b>Flat cost.</b> {@link #latest} reads the log's last event, {@link #find} one event by id, {@link #put}
 *       commits one step: none reads more as the thread grows. {@link #page} reads one page.</li>
 *   <li><b>Never silently skip.</b> A stored checkpoint that cannot be decoded fails the read that meets it with an
 *       {@link UndecodableCheckpointException} naming the thread and the checkpoint.</li>
 *   <li><b>Idempotent retries.</b> Putting a checkpoint again (same id, same content), after an unknown outcome,
 *       stores nothing and returns it as stored.</li>
 * </ul>
 *
 * <p>Needs a store with {@link Capability#SUMMARIES} (the chapters) and {@link Capability#TRUNCATION} (replacing).
 * The store's sessions should be graph threads only: retention by events per session applies to every session of the
 * store. Thread-safe and stateless; share one per store.
 */
public final class GraphThreads {

  private static final int PAGE = 500;

  private final SessionStore store;

  private GraphThreads(SessionStore store) {
    this.store = store;
  }

  /**
   * The threads of {@code store}.
   *
   * @throws NullPointerException           if {@code store} is null
   * @throws UnsupportedCapabilityException naming {@link Capability#SUMMARIES} or {@link Capability#TRUNCATION} if
   *                                        the store lacks it
   */
  public static GraphThreads on(SessionStore store) {
    Objects.requireNonNull(store, "store");
    for (Capability needed : List.of(Capability.SUMMARIES, Capability.TRUNCATION)) {
      if (!store.supports(needed)) {
        throw new UnsupportedCapabilityException(needed);
      }
    }
    return new GraphThreads(store);
  }

  /** The store the threads live in. */
  public SessionStore store() {
    return store;
  }

  /**
   * The thread's latest checkpoint (the last of its log), or empty for a thread with none. Reads one event.
   *
   * @throws UndecodableCheckpointException if the latest checkpoint cannot be decoded
   */
  public Optional<StoredCheckpoint> latest(String threadId) {
    EventPage page = store.events().read(threadId, EventQuery.all().last(1));
    return page.items().stream().findFirst().map(CheckpointEvents::checkpoint);
  }

  /**
   * The thread's checkpoint with this id, or empty. Reads one event.
   *
   * @throws UndecodableCheckpointException if it cannot be decoded
   */
  public Optional<StoredCheckpoint> find(String threadId, String checkpointId) {
    return store.events().find(threadId, checkpointId).map(CheckpointEvents::checkpoint);
  }

  /**
   * Stores {@code checkpoint} as the thread's new latest, if {@code parent} still is its latest
   * ({@link ThreadHead#EMPTY}: if the thread has no checkpoint). One commit: the checkpoint's event and its chapter,
   * with the expected last seq. A retry of a put that was stored (same id, same content) returns it as stored.
   *
   * @return the checkpoint as stored
   * @throws CheckpointConflictException                 if the thread's latest checkpoint is not {@code parent};
   *                                                     nothing was stored
   * @throws dev.sessionstore.DuplicateEventException    if the thread stores another checkpoint under this id
   * @throws InvalidArgumentException                   if the id is not a valid event id or the payload is too large
   */
  public StoredCheckpoint put(String threadId, GraphCheckpoint checkpoint, ThreadHead parent) {
    long seq = parent.seq() + 1;
    Step step = Step.builder(threadId)
        .event(CheckpointEvents.event(checkpoint))
        .summary(CheckpointEvents.chapter(seq, seq, checkpoint.id()))
        .expectLastSeq(parent.seq())
        .build();
    return commit(threadId, step, parent).get(0);
  }

  /**
   * Replaces the thread's checkpoint {@code checkpointId} with {@code replacement} in place (same position in the
   * thread's order), in one commit: the log is cut at the checkpoint and the replacement appended, followed by the
   * checkpoints that were after it, unchanged. Replacing the latest checkpoint reads two events; an earlier one also
   * reads the checkpoints after it (at most {@link Limits#MAX_BATCH_SIZE} - 1). The checkpoints re-appended after a
   * replaced earlier one form one chapter with it: retention then keeps or cuts them together.
   *
   * @return the replacement as stored
   * @throws NotFoundException                         if the thread has no checkpoint {@code checkpointId}
   * @throws CheckpointConflictException               if another writer put a checkpoint during the replacement
   * @throws InvalidArgumentException                 if too many checkpoints follow the replaced one
   */
  public StoredCheckpoint replace(String threadId, String checkpointId, GraphCheckpoint replacement) {
    Event target = store.events().find(threadId, checkpointId)
        .orElseThrow(() -> new NotFoundException("checkpoint of graph thread " + threadId, checkpointId));
    EventPage after = store.events().read(threadId,
        EventQuery.all().after(target.seq()).first(Limits.MAX_BATCH_SIZE - 1));
    if (after.nextCursor().isPresent()) {
      throw new InvalidArgumentException("checkpointId", "checkpoint " + checkpointId
          + " of graph thread " + threadId + " is followed by more than " + (Limits.MAX_BATCH_SIZE - 1)
          + " checkpoints; only a checkpoint among the latest " + Limits.MAX_BATCH_SIZE + " can be replaced");
    }
    List<NewEvent> events = new ArrayList<>();
    events.add(CheckpointEvents.event(replacement));
    for (Event later : after.items()) {
      events.add(NewEvent.of(later.type(), later.payload()).withId(later.id()).withTimestamp(later.timestamp()));
    }
    Event last = after.items().isEmpty() ? target : after.items().get(after.items().size() - 1);
    Step step = Step.builder(threadId)
        .truncateFrom(target.seq())
        .events(events)
        .summary(CheckpointEvents.chapter(target.seq(), last.seq(), last.id()))
        .expectLastSeq(last.seq())
        .build();
    return commit(threadId, step, new ThreadHead(last.seq(), last.id())).get(0);
  }

  /**
   * One page of the thread's checkpoints, newest first by seq: the {@code limit} newest before {@code beforeSeq}
   * (exclusive), or the newest when empty. An unknown thread has none.
   *
   * @throws UndecodableCheckpointException if one of them cannot be decoded
   * @throws IllegalArgumentException       if {@code limit} is below 1
   */
  public CheckpointPage page(String threadId, OptionalLong beforeSeq, int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, was " + limit);
    }
    EventQuery query = EventQuery.all().newestFirst().limit(limit);
    if (beforeSeq.isPresent()) {
      query = query.before(beforeSeq.getAsLong());
    }
    EventPage page = store.events().read(threadId, query);
    return new CheckpointPage(page.items().stream().map(CheckpointEvents::checkpoint).toList(), page.nextCursor());
  }

  /**
   * Every checkpoint of the thread, newest first, read page by page. Reads the whole thread: for runtimes whose
   * saver API returns a whole list.
   *
   * @throws UndecodableCheckpointException if one of them cannot be decoded
   */
  public List<StoredCheckpoint> all(String threadId) {
    List<StoredCheckpoint> all = new ArrayList<>();
    OptionalLong before = OptionalLong.empty();
    do {
      CheckpointPage page = page(threadId, before, PAGE);
      all.addAll(page.items());
      before = page.nextBefore();
    } while (before.isPresent());
    return all;
  }

  /**
   * Closes the thread: its session's status becomes {@link SessionStatus#COMPLETED}, and its checkpoints stay (for
   * history, until retention removes them). Returns them as stored, newest first; an unknown thread is left unknown
   * and has none.
   *
   * @throws UndecodableCheckpointException if one of them cannot be decoded
   */
  public List<StoredCheckpoint> release(String threadId) {
    if (store.sessions().find(threadId).isEmpty()) {
      return List.of();
    }
    store.sessions().save(SessionWrite.of(threadId).withStatus(SessionStatus.COMPLETED));
    return all(threadId);
  }

  /**
   * Empties the thread, for runtimes whose release forgets it (Spring AI Alibaba's {@code MemorySaver}): returns its
   * checkpoints as stored, newest first, and cuts them all from its log, their chapters with them, in one commit with
   * the thread's expected last seq, so a checkpoint another writer put meanwhile is never dropped unreturned. The
   * thread's session stays, empty: its next checkpoint is put on {@link ThreadHead#EMPTY}. An unknown or empty thread
   * has none, and nothing is written.
   *
   * @throws CheckpointConflictException    if another writer put a checkpoint meanwhile; nothing was cut
   * @throws UndecodableCheckpointException if one of them cannot be decoded; nothing was cut
   */
  public List<StoredCheckpoint> clear(String threadId) {
    List<StoredCheckpoint> all = all(threadId);
    if (all.isEmpty()) {
      return List.of();
    }
    ThreadHead latest = all.get(0).head();
    commit(threadId, Step.builder(threadId).truncateFrom(1).expectLastSeq(latest.seq()).build(), latest);
    return all;
  }

  private List<StoredCheckpoint> commit(String threadId, Step step, ThreadHead expected) {
    StepResult result;
    try {
      result = store.commit(step).committed().orElseThrow(() -> new IllegalStateException(
          "a step without resolutions was rejected as stale"));
    } catch (SeqConflictException e) {
      ThreadHead actual = latest(threadId).map(StoredCheckpoint::head).orElse(ThreadHead.EMPTY);
      CheckpointConflictException conflict = new CheckpointConflictException(threadId, expected, actual);
      conflict.initCause(e);
      throw conflict;
    }
    return result.events().stream().map(CheckpointEvents::checkpoint).toList();
  }
}
