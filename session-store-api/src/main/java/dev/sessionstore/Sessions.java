package dev.sessionstore;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Sessions: upsert, lookup, listing, forks and deletion. Thread-safe; every method may be called from any thread
 * and every write is visible to the next read from any thread (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#6">6</a>).
 *
 * <p>Writing anything under an unknown session id (an event, run, tool call, checkpoint) creates the session with
 * status {@link SessionStatus#ACTIVE}, like a stream in an event store.
 */
public interface Sessions {

  /**
   * Creates or updates a session and returns it as stored (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#3">3</a>). Saving the same write
   * twice leaves one session. Fields the write leaves {@code null} keep their stored values; metadata is merged.
   *
   * @throws ConflictException              if the write names the session with a name another session has
   * @throws InvalidArgumentException       if a field is invalid
   * @throws UnsupportedCapabilityException if the write gives a tenant and the store lacks
   *                                        {@link Capability#TENANTS} (nothing is stored)
   */
  Session save(SessionWrite write);

  /**
   * Merges {@code patch} into the stored session's metadata in one atomic write and returns the session as stored: a
   * key mapped to {@code null} is removed, the others are set; no other field changes. Concurrent merges of different
   * keys all take effect (no find-then-save race). Merging the same patch twice leaves the same metadata.
   *
   * @throws NotFoundException        if the session does not exist
   * @throws InvalidArgumentException naming {@code metadata} ({@code metadata key}, {@code metadata[key]}) if the
   *                                  patch, a key or a value is invalid, or {@code session.metadata} if the merged
   *                                  map would exceed {@link Limits#MAX_METADATA_ENTRIES}
   */
  Session mergeMetadata(String sessionId, Map<String, String> patch);

  /** The session with this exact id, or empty. */
  Optional<Session> find(String sessionId);

  /** The session with this exact name, or empty. */
  Optional<Session> findByName(String name);

  /**
   * Sessions matching {@code query}, in creation order, paged by the query's limit and cursor or offset. A query by
   * expiry ({@link SessionQuery#expiresBefore}) reads only the sessions whose expiry is before its instant.
   *
   * @throws UnsupportedCapabilityException if the query selects a tenant and the store lacks
   *                                        {@link Capability#TENANTS}
   */
  SessionPage list(SessionQuery query);

  /**
   * Ids of the sessions whose settings ask to be resumed eagerly ({@code "resume_policy": "eager"}), whatever their
   * status, sorted by id in code point order.
   */
  List<String> listResumable();

  /**
   * Forks {@code sessionId} at {@code atSeq} into a new session with a generated id; the parent is untouched and the
   * two diverge from there (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#11">11</a>). The fork shows, as of one consistent view of the
   * parent:
   * <ul>
   *   <li>events {@code 1..atSeq}, with the same ids, seqs and content, each returned with the fork's session id; they
   *       take part in the fork's idempotency (a replay of one of their ids returns it), later appends to the parent
   *       never appear in the fork, and truncating or deleting the parent (or any session it was forked from) never
   *       changes them;</li>
   *   <li>the summaries whose {@code toSeq <= atSeq};</li>
   *   <li>the runs named by an event of that prefix ({@link Event#runId()}), as they are stored now;</li>
   *   <li>the tool calls whose requesting event is in the prefix, with their current state (status, result,
   *       deadline): a pending call stays pending in the fork, where it is resolved, expires and is waited for
   *       independently of the parent's call of the same id;</li>
   *   <li>the session's checkpoints (turn state) as they are now;</li>
   *   <li>its agent, tenant, status, settings and metadata. The fork has no name and no expiry
   *       ({@link Session#expiresAt()}).</li>
   * </ul>
   * Runs not named by a prefix event, tool calls without a requesting event or requested after {@code atSeq}, and
   * model-call audit rows stay with the parent. The rule is shared by every
   * adapter.
   *
   * @throws NotFoundException               if the session or the event at {@code atSeq} does not exist
   * @throws InvalidArgumentException        if {@code atSeq < 1}
   * @throws UnsupportedCapabilityException  if the store lacks {@link Capability#FORKS}
   */
  Session fork(String sessionId, long atSeq);

  /**
   * Like {@link #fork(String, long)} with a caller-chosen id for the fork.
   *
   * @throws ConflictException if a session with {@code newSessionId} exists
   */
  Session fork(String sessionId, long atSeq, String newSessionId);

  /**
   * Deletes the session and everything it owns: events, runs, tool calls and their deadlines, summaries,
   * session checkpoints and model-call audit rows (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#14">14</a>). Idempotent. Its
   * writer-fencing state ({@link #claim}) stays, so that tokens of the id keep growing if it is used again.
   *
   * @return whether a session was deleted
   */
  boolean delete(String sessionId);

  /**
   * Deletes every session of {@code tenant} as {@link #delete(String)} does.
   *
   * @return how many sessions were deleted
   * @throws UnsupportedCapabilityException if the store lacks {@link Capability#TENANTS} (nothing is deleted)
   */
  int deleteByTenant(String tenant);

  /**
   * Claims the right to write to {@code sessionId} for {@code ownerId} and returns the claim with a new fencing token,
   * greater than every token this session id was ever given (by any store instance on the backend, also before a
   * restart on a durable backend and before the session was deleted). From the moment this returns, a step carrying
   * an older token ({@link Step.Builder#fence}) stores nothing and fails with {@link FencedWriterException} naming
   * {@code ownerId}; a step of an older token that committed before it is visible to every read after it. Steps
   * without a token are not checked: fencing binds only writers that carry tokens.
   *
   * <p>Every claim issues a new token, also a repeated claim by the current owner: a process that restarts under the
   * same owner id fences its own earlier incarnation. The claim does not create the session; the first step creates
   * it as any write does. Deleting a session keeps its fencing state, so that its tokens keep growing when the id is
   * used again and no token issued before the deletion ever becomes current again. The fencing state is not part of a
   * session's {@linkplain Archives archive}: it belongs to the backend's writers, not to the session's content, and an
   * import leaves the target's fencing state of that id as it is. A fork starts unclaimed
   * (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#20">20</a>).
   *
   * @throws InvalidArgumentException       naming {@code sessionId} or {@code ownerId} if one is invalid
   * @throws UnsupportedCapabilityException if the store lacks {@link Capability#WRITER_FENCING}
   */
  default WriterClaim claim(String sessionId, String ownerId) {
    throw new UnsupportedCapabilityException(Capability.WRITER_FENCING);
  }

  /**
   * The session's current claim (the latest {@link #claim}), or empty if the session id was never claimed. Reading it
   * fences nothing; a runtime uses it to learn who holds a session.
   *
   * @throws UnsupportedCapabilityException if the store lacks {@link Capability#WRITER_FENCING}
   */
  default Optional<WriterClaim> currentClaim(String sessionId) {
    throw new UnsupportedCapabilityException(Capability.WRITER_FENCING);
  }
}
