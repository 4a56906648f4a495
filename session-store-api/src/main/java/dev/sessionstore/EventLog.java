package dev.sessionstore;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The append-only, per-session event log. Thread-safe; what an append returned is visible to the next read from any
 * thread (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#6">6</a>).
 *
 * <p><b>Sequencing</b> (guarantee 1): each stored event gets {@code seq} = previous + 1, starting at 1, with no gaps
 * and no duplicates under any number of concurrent writers.
 * <b>Idempotency</b> (guarantee 3): an event whose id the session already stores with equal content is not stored
 * again; the stored event is returned in its place, also inside a batch that mixes stored and new ids and for
 * identical duplicates within one batch. A reused id with different content fails with
 * {@link DuplicateEventException}.
 * <b>Atomicity</b> (guarantee 4): a batch is stored whole or not at all.
 * <b>Optimistic concurrency</b> (guarantee 5): the {@code expectedLastSeq} overloads store nothing and throw
 * {@link SeqConflictException} unless the log ends at that seq; the check applies when the batch stores at least one
 * new event, so replaying an already stored batch returns it.
 *
 * <p>Appending to an unknown session creates it. Reading an unknown session is empty.
 */
public interface EventLog {

  /**
   * Appends one event and returns it as stored, or the already stored event with the same id and content.
   *
   * @throws DuplicateEventException  if the session stores different content under the event's id
   * @throws InvalidArgumentException if {@code sessionId} is invalid
   */
  Event append(String sessionId, NewEvent event);

  /**
   * Appends one event if the log ends at {@code expectedLastSeq} (0 = empty log).
   *
   * @throws SeqConflictException    if the log ends at another seq; it carries the actual one
   * @throws DuplicateEventException if the session stores different content under the event's id
   */
  Event append(String sessionId, NewEvent event, long expectedLastSeq);

  /**
   * Appends a batch atomically and returns one stored event per input, in input order: new events get consecutive
   * seqs in input order, replayed ones come back as stored. An empty batch stores nothing and returns an empty list.
   *
   * @throws DuplicateEventException  if an id is reused with different content, stored or within the batch
   * @throws InvalidArgumentException if the batch is larger than {@link Limits#MAX_BATCH_SIZE} or holds null
   */
  List<Event> appendAll(String sessionId, List<NewEvent> events);

  /**
   * Like {@link #appendAll(String, List)}, if the log ends at {@code expectedLastSeq}.
   *
   * @throws SeqConflictException if the batch holds a new event and the log ends at another seq
   */
  List<Event> appendAll(String sessionId, List<NewEvent> events, long expectedLastSeq);

  /** The seq of the session's last event; 0 for an empty or unknown session. */
  long lastSeq(String sessionId);

  /** The session's event with this id, or empty. */
  Optional<Event> find(String sessionId, String eventId);

  /** The events of {@code sessionId} that {@code query} selects, in its direction's order; empty when unknown. */
  EventPage read(String sessionId, EventQuery query);

  /**
   * Like {@link #read}, but when the result would be empty, waits up to {@code timeout} for an append (by any writer
   * the store can see) that makes it non-empty, and returns as soon as one does (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#8">8</a>).
   * Returns an empty page when the timeout passes first. Appends to other sessions, or events the query filters out, do
   * not end the wait.
   *
   * <p>The wait outlives a backend it cannot reach until its timeout (guarantee 17): across a lost connection, a
   * database restart, or nodes and a quorum lost, it keeps reading again with a bounded backoff (at most a second
   * apart), returns the events as soon as the backend answers again and has them, and returns the empty page if the
   * timeout passes during the outage, as with the backend up (once a read in flight ends: at most the backend's own
   * connection or request timeout late). Only a failure that is not
   * {@linkplain StoreFailureException#isRetryable() retryable}, a closed store or bad input ends it early.
   *
   * @throws StoreFailureException          if the backend fails in a way that retrying cannot fix
   * @throws UnsupportedCapabilityException if the store lacks {@link Capability#WAITING_READS}
   */
  EventPage await(String sessionId, EventQuery query, Duration timeout);

  /**
   * Cuts the log at {@code fromSeq}: removes that event and every later one, across agents, and every summary whose
   * {@code toSeq >= fromSeq}; a tool call whose requesting event is cut keeps everything but that link
   * ({@link ToolCall#requestEventId()} becomes {@code null}); the next append gets seq {@code fromSeq} (guarantee
   * <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#12">12</a>). Cutting past the end removes nothing.
   *
   * @return how many events were removed
   * @throws NotFoundException              if the session does not exist
   * @throws UnsupportedCapabilityException if the store lacks {@link Capability#TRUNCATION}
   */
  int truncate(String sessionId, long fromSeq);
}
