package dev.sessionstore;

import java.util.List;
import java.util.Optional;

/**
 * Lossless export and import of whole sessions, to move a store's data to another store (of the same adapter or
 * another one) and back: every entity with every field as stored, timestamps and seqs included, which the write
 * operations cannot reproduce because they stamp the store's own clock. Thread-safe. Requires
 * {@link Capability#ARCHIVES}.
 *
 * <p>To move a store: page through {@link Sessions#list}, {@link #export} each session and
 * {@link #importSession} it into the target; then {@link #globalCheckpoints()} and {@link #importGlobalCheckpoint}.
 * An archive read back from a file is hostile input: import checks every field as the write operations do, limits
 * included, before anything is written.
 */
public interface Archives {

  /**
   * The session with everything it owns, read in one consistent view: no write to the session that commits while
   * the export runs is half visible in it. Tool calls are as a read sees them now (a call whose deadline has passed
   * is expired). Model-call audit rows are included while the audit is enabled ({@link ModelCallAudit#enabled()}).
   * A fork's archive holds its whole log, the events it took from its parent included, and its
   * {@link Session#forkOrigin()} as data.
   *
   * @return the archive, or empty for an unknown session
   */
  Optional<SessionArchive> export(String sessionId);

  /**
   * Stores {@code archive} atomically, exactly as archived: the session with its timestamps, name, tenant and fork
   * origin; its events with their ids, seqs and timestamps (the next append continues after the last one); runs,
   * tool calls (a pending call stays pending, and a deadline it carries is enforced from now on like any other),
   * summaries, checkpoints, and model-call audit rows when the audit is enabled (dropped otherwise, as
   * {@link ModelCallAudit#record} drops rows). Either all of it is stored or nothing is (guarantee
   * <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#4">4</a>). The archived session's parent, if it is a fork, need not exist: the fork origin is kept as
   * data.
   *
   * <p>Idempotent: importing an archive whose session is already stored with exactly this content writes nothing and
   * returns {@link ImportOutcome#UNCHANGED}, so an import interrupted or run twice is simply run again. The store's
   * state is compared as a read sees it at the time of the import, and the archive as its own deadlines have made it
   * since: a call pending in the archive with a deadline that has passed matches the stored call that deadline
   * expired (status expired, the deadline's result, no deadline, every other field as archived, {@code updatedAt}
   * when the store expired it, at or after the deadline). So an import run again after a deadline of the archive
   * fired is {@code UNCHANGED}; a deadline the store moved, cancelled or fired early is a change, hence a
   * {@code CONFLICT}. After a connection lost while the import committed, a store that settles the doubt by running
   * it again reports {@code UNCHANGED} when the first attempt was stored.
   *
   * <p>A tool call of the archive that names a requesting event names an event of the archive's log: a store never
   * holds another (a cut of the log drops the link of a call whose requesting event it removes), so its exports
   * always import.
   *
   * @return {@link ImportOutcome#IMPORTED}; {@link ImportOutcome#UNCHANGED} if the store exports this session exactly
   *     as archived, or as the archive's passed deadlines expired its calls (model-call rows compared only while the
   *     audit is enabled); {@link ImportOutcome#CONFLICT} if the store holds a different session under the archive's
   *     id, or another session has its name (nothing written)
   * @throws InvalidArgumentException       naming the offending member ({@code archive.events[499].seq},
   *                                        {@code archive.toolCalls[3].requestEventId}, ...) if the archive is null or
   *                                        invalid (see <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#archives">the archive rules</a> of the guarantees), or holds an instant the backend cannot store
   * @throws UnsupportedCapabilityException if the archive holds what the store lacks: tool calls
   *                                        ({@link Capability#TOOL_CALLS}), a deadline ({@link Capability#DEADLINES}),
   *                                        summaries ({@link Capability#SUMMARIES}), checkpoints
   *                                        ({@link Capability#CHECKPOINTS}), model-call rows
   *                                        ({@link Capability#MODEL_CALL_AUDIT}) or a cut log
   *                                        ({@link Capability#RETENTION}); nothing is stored
   */
  ImportOutcome importSession(SessionArchive archive);

  /**
   * Every checkpoint owned by no session ({@link CheckpointKey#global}), sorted by name in
   * code point order; empty when the store lacks
   * {@link Capability#CHECKPOINTS}.
   */
  List<Checkpoint> globalCheckpoints();

  /**
   * Stores a global checkpoint exactly as exported, its {@link Checkpoint#updatedAt()} included.
   *
   * @return {@link ImportOutcome#IMPORTED}; {@link ImportOutcome#UNCHANGED} if the same bytes and time are stored
   *     under its name; {@link ImportOutcome#CONFLICT} if other ones are (nothing written)
   * @throws InvalidArgumentException       if the checkpoint is null, belongs to a session, is larger than
   *                                        {@link Limits#MAX_CHECKPOINT_BYTES}, or its time cannot be stored
   * @throws UnsupportedCapabilityException if the store lacks {@link Capability#CHECKPOINTS}
   */
  ImportOutcome importGlobalCheckpoint(Checkpoint checkpoint);
}
