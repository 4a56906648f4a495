package dev.sessionstore.spi;

import dev.sessionstore.Capability;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.Event;
import dev.sessionstore.ImportOutcome;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Limits;
import dev.sessionstore.ModelCall;
import dev.sessionstore.Run;
import dev.sessionstore.Session;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.Summary;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.UnsupportedCapabilityException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * What makes a {@link SessionArchive} importable, checked once for every adapter by {@link ValidatingSessionStore}
 * before the adapter sees the archive: an archive read from a file is hostile input, so every member is held to the
 * rules the write operations apply, limits included, and to the invariants a store keeps. What the member records
 * check when built (keys, JSON documents, instants truncated to microseconds) is not repeated. Each failure is an
 * {@link InvalidArgumentException} naming the member by its position in the archive's canonical order, such as
 * {@code archive.events[499].seq}.
 *
 * <ul>
 *   <li>session: metadata as a write may hold it (at most {@link Limits#MAX_METADATA_ENTRIES} entries, keys and
 *       values as {@link Arguments#requireMetadataPatch}, no removal); not forked from itself;</li>
 *   <li>every member belongs to the archive's session;</li>
 *   <li>events: seqs gapless from {@link SessionArchive#cutSeq()} + 1 (from 1 when the log was never cut), ids
 *       distinct; a cut archive needs {@link Capability#RETENTION}, the one capability under which a store holds a
 *       log cut at its head;</li>
 *   <li>runs and tool calls: ids distinct; a tool call holds a result exactly when it is no longer pending, and a
 *       deadline only while pending; a requesting event it names is an event of the archive's log, as a store holds
 *       it (registering a call names an event of the log, and a cut of the log drops the link of every call whose
 *       requesting event it removes), so a call naming any other event is a
 *       {@code archive.toolCalls[i].requestEventId} error;</li>
 *   <li>summaries: {@code toSeq} distinct, {@code 1 <= fromSeq <= toSeq <= } the last seq, version at least 1;</li>
 *   <li>checkpoints: names distinct, at most {@link Limits#MAX_CHECKPOINT_BYTES} each;</li>
 *   <li>model calls: turns distinct.</li>
 * </ul>
 * An archive holding what the store lacks fails with {@link UnsupportedCapabilityException} (tool calls, deadlines,
 * summaries, checkpoints, model-call rows, a cut log); what only the backend knows (an instant outside the range it
 * stores) stays the adapter's to check.
 *
 * <p>{@link #outcomeOver} is the rule that tells a repeated import from a conflicting one, for every adapter.
 */
public final class ArchiveRules {

  private ArchiveRules() {
  }

  /**
   * {@code archive}, if a store with {@code capabilities} may import it.
   *
   * @throws InvalidArgumentException       naming the first invalid member
   * @throws UnsupportedCapabilityException if the archive holds what the store lacks
   */
  public static SessionArchive check(SessionArchive archive, Set<Capability> capabilities) {
    Arguments.requireNonNull("archive", archive);
    String sessionId = archive.sessionId();
    checkSession(archive.session());
    if (archive.isCut()) {
      requireCapability(capabilities, Capability.RETENTION);
    }
    checkEvents(sessionId, archive.cutSeq(), archive.events());
    checkRuns(sessionId, archive.runs());
    checkToolCalls(sessionId, archive.toolCalls(), archive.events(), capabilities);
    checkSummaries(sessionId, archive.summaries(), archive.lastSeq(), capabilities);
    checkCheckpoints(sessionId, archive.checkpoints(), capabilities);
    if (!archive.modelCalls().isEmpty()) {
      requireCapability(capabilities, Capability.MODEL_CALL_AUDIT);
    }
    distinct("archive.modelCalls", archive.modelCalls(), ModelCall::turn);
    for (int i = 0; i < archive.modelCalls().size(); i++) {
      requireOwner("archive.modelCalls[" + i + "].sessionId", archive.modelCalls().get(i).sessionId(), sessionId);
    }
    return archive;
  }

  /**
   * A global checkpoint to import: owned by no session, at most {@link Limits#MAX_CHECKPOINT_BYTES}.
   *
   * @throws InvalidArgumentException naming {@code checkpoint} if it is null, {@code checkpoint.sessionId} or
   *                                  {@code checkpoint.data} if it breaks a rule
   */
  public static Checkpoint checkGlobal(Checkpoint checkpoint) {
    Arguments.requireNonNull("checkpoint", checkpoint);
    if (checkpoint.key().isSessionScoped()) {
      throw new InvalidArgumentException("checkpoint.sessionId",
          "a global checkpoint belongs to no session (was " + checkpoint.key().sessionId() + ")");
    }
    Arguments.requireCheckpointData("checkpoint.data", checkpoint.data());
    return checkpoint;
  }

  /**
   * What importing {@code archive} over {@code stored}, the export of the session the store already holds under its
   * id, amounts to: {@link ImportOutcome#UNCHANGED} when the store holds the session exactly as archived, or as the
   * archive's own deadlines have made it since; {@link ImportOutcome#CONFLICT} otherwise. The archive's deadlines are
   * the one change a store makes of itself: a call pending in the archive with a deadline matches a stored call that
   * is that call expired by that deadline ({@link ToolCallTransitions#expired}: status expired, the deadline's
   * {@link Expiry#result}, no deadline, every other field as archived), its {@code updatedAt} when the store expired
   * it, at or after the deadline. Any other difference, a deadline moved, cancelled or expired early included, is a
   * conflict. So an import run again after a deadline of the archive fired reports {@code UNCHANGED}, like any repeat.
   *
   * @param stored  the store's export of the session, as a read sees it now (due calls expired)
   * @param archive the archive to import, checked by {@link #check}; model-call rows already dropped when the store
   *                keeps none
   */
  public static ImportOutcome outcomeOver(SessionArchive stored, SessionArchive archive) {
    Map<String, ToolCall> storedCalls = new HashMap<>();
    stored.toolCalls().forEach(call -> storedCalls.put(call.id(), call));
    List<ToolCall> asOfNow = archive.toolCalls().stream()
        .map(call -> expiredInStore(call, storedCalls.get(call.id())) ? storedCalls.get(call.id()) : call)
        .toList();
    return archive.withToolCalls(asOfNow).equals(stored) ? ImportOutcome.UNCHANGED : ImportOutcome.CONFLICT;
  }

  /** Whether {@code stored} is {@code archived}, pending with a deadline, as that deadline expired it. */
  private static boolean expiredInStore(ToolCall archived, ToolCall stored) {
    return stored != null && archived.status() == ToolCallStatus.PENDING && archived.deadline() != null
        && !stored.updatedAt().isBefore(archived.deadline())
        && stored.equals(ToolCallTransitions.expired(archived, stored.updatedAt()));
  }

  private static void checkSession(Session session) {
    Arguments.requireMetadataPatch("archive.session.metadata", session.metadata());
    if (session.forkedFrom() != null && session.forkedFrom().sessionId().equals(session.id())) {
      throw new InvalidArgumentException("archive.session.forkedFrom", "a session is not forked from itself");
    }
  }

  private static void checkEvents(String sessionId, long cutSeq, List<Event> events) {
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < events.size(); i++) {
      Event event = events.get(i);
      String field = "archive.events[" + i + "]";
      requireOwner(field + ".sessionId", event.sessionId(), sessionId);
      if (event.seq() != cutSeq + i + 1) {
        throw new InvalidArgumentException(field + ".seq", "seqs must run gapless from " + (cutSeq + 1)
            + (cutSeq == 0 ? "" : ", after the cut through " + cutSeq) + ": expected " + (cutSeq + i + 1)
            + ", was " + event.seq());
      }
      if (!ids.add(event.id())) {
        throw new InvalidArgumentException(field + ".id", "another event of the archive has id " + event.id());
      }
    }
  }

  private static void checkRuns(String sessionId, List<Run> runs) {
    distinct("archive.runs", runs, Run::id);
    for (int i = 0; i < runs.size(); i++) {
      requireOwner("archive.runs[" + i + "].sessionId", runs.get(i).sessionId(), sessionId);
    }
  }

  private static void checkToolCalls(String sessionId, List<ToolCall> calls, List<Event> events,
      Set<Capability> capabilities) {
    if (!calls.isEmpty()) {
      requireCapability(capabilities, Capability.TOOL_CALLS);
    }
    distinct("archive.toolCalls", calls, ToolCall::id);
    Set<String> eventIds = new HashSet<>();
    events.forEach(event -> eventIds.add(event.id()));
    for (int i = 0; i < calls.size(); i++) {
      ToolCall call = calls.get(i);
      String field = "archive.toolCalls[" + i + "]";
      requireOwner(field + ".sessionId", call.sessionId(), sessionId);
      if (call.requestEventId() != null && !eventIds.contains(call.requestEventId())) {
        throw new InvalidArgumentException(field + ".requestEventId",
            "names event " + call.requestEventId() + ", which the archive's log does not hold");
      }
      boolean pending = call.status() == ToolCallStatus.PENDING;
      if (pending != (call.result() == null)) {
        throw new InvalidArgumentException(field + ".result", pending
            ? "a pending call has no result" : "a " + call.status() + " call has a result");
      }
      if (call.deadline() != null) {
        if (!pending) {
          throw new InvalidArgumentException(field + ".deadline", "only a pending call has a deadline");
        }
        requireCapability(capabilities, Capability.DEADLINES);
      }
    }
  }

  private static void checkSummaries(String sessionId, List<Summary> summaries, long lastSeq,
      Set<Capability> capabilities) {
    if (!summaries.isEmpty()) {
      requireCapability(capabilities, Capability.SUMMARIES);
    }
    distinct("archive.summaries", summaries, Summary::toSeq);
    for (int i = 0; i < summaries.size(); i++) {
      Summary summary = summaries.get(i);
      String field = "archive.summaries[" + i + "]";
      requireOwner(field + ".sessionId", summary.sessionId(), sessionId);
      if (summary.fromSeq() > summary.toSeq()) {
        throw new InvalidArgumentException(field + ".toSeq",
            "must be >= fromSeq (" + summary.toSeq() + " < " + summary.fromSeq() + ")");
      }
      if (summary.toSeq() > lastSeq) {
        throw new InvalidArgumentException(field + ".toSeq",
            "past the archive's last seq " + lastSeq + " (" + summary.toSeq() + ")");
      }
      Arguments.requirePositive(field + ".version", summary.version());
    }
  }

  private static void checkCheckpoints(String sessionId, List<Checkpoint> checkpoints,
      Set<Capability> capabilities) {
    if (!checkpoints.isEmpty()) {
      requireCapability(capabilities, Capability.CHECKPOINTS);
    }
    distinct("archive.checkpoints", checkpoints, checkpoint -> checkpoint.key().name());
    for (int i = 0; i < checkpoints.size(); i++) {
      Checkpoint checkpoint = checkpoints.get(i);
      String field = "archive.checkpoints[" + i + "]";
      requireOwner(field + ".sessionId", checkpoint.key().sessionId(), sessionId);
      Arguments.requireCheckpointData(field + ".data", checkpoint.data());
    }
  }

  private static void requireOwner(String field, String owner, String sessionId) {
    if (!sessionId.equals(owner)) {
      throw new InvalidArgumentException(field, "must be the archive's session " + sessionId + " (was " + owner + ")");
    }
  }

  private static <T> void distinct(String field, List<T> members, Function<T, Object> key) {
    Set<Object> seen = new HashSet<>();
    for (int i = 0; i < members.size(); i++) {
      Object value = key.apply(members.get(i));
      if (!seen.add(value)) {
        throw new InvalidArgumentException(field + "[" + i + "]", "another member of the archive has key " + value);
      }
    }
  }

  private static void requireCapability(Set<Capability> capabilities, Capability capability) {
    if (!capabilities.contains(capability)) {
      throw new UnsupportedCapabilityException(capability);
    }
  }
}
