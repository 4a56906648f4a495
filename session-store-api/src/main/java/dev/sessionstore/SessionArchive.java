package dev.sessionstore;

import java.util.Comparator;
import java.util.List;

/**
 * One session whole, as {@link Archives#export} reads it and {@link Archives#importSession} stores it: the session
 * record (with its {@link ForkOrigin}) and everything it owns, every field as stored, timestamps included.
 *
 * <p>The lists are held in one canonical order, whatever order they were given in, so that two archives of the same
 * session are equal however they were assembled (a file may list rows in any order): events by seq, runs and tool
 * calls by creation time then id, summaries by {@code toSeq}, checkpoints by name, model calls by turn (ids and names
 * in code point order).
 *
 * <p>Immutable; each {@code with...} returns a copy. Construction checks only that no member is null; whether the
 * members fit together (all of this session, seqs gapless from 1, ids distinct, summaries within the log, limits) is
 * checked by {@link Archives#importSession} before anything is written, with the archive
 * rules every adapter shares (docs/guarantees.md).
 *
 * @param session     the session record; its {@link Session#lastSeq()} is taken from {@code events} (the given one is
 *                    ignored), so a file need not carry it
 * @param events      its whole log, seqs 1 to the last
 * @param runs        its runs
 * @param toolCalls   its tool calls, whatever their status, with their deadlines
 * @param summaries   its summaries
 * @param checkpoints its session-scoped checkpoints
 * @param modelCalls  its model-call audit rows; empty when the exporting store kept none
 */
public record SessionArchive(
    Session session,
    List<Event> events,
    List<Run> runs,
    List<ToolCall> toolCalls,
    List<Summary> summaries,
    List<Checkpoint> checkpoints,
    List<ModelCall> modelCalls) {

  private static final Comparator<Run> RUN_ORDER =
      Comparator.comparing(Run::createdAt).thenComparing(Run::id, Checks::compareIds);
  private static final Comparator<ToolCall> TOOL_CALL_ORDER =
      Comparator.comparing(ToolCall::createdAt).thenComparing(ToolCall::id, Checks::compareIds);

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public SessionArchive {
    Checks.requireNonNull("archive.session", session);
    events = sorted("archive.events", events, Comparator.comparingLong(Event::seq));
    runs = sorted("archive.runs", runs, RUN_ORDER);
    toolCalls = sorted("archive.toolCalls", toolCalls, TOOL_CALL_ORDER);
    summaries = sorted("archive.summaries", summaries, Comparator.comparingLong(Summary::toSeq));
    checkpoints = sorted("archive.checkpoints", checkpoints,
        Comparator.comparing(checkpoint -> checkpoint.key().name(), Checks::compareIds));
    modelCalls = sorted("archive.modelCalls", modelCalls, Comparator.comparingLong(ModelCall::turn));
    session = session.withLastSeq(events.isEmpty() ? 0 : events.get(events.size() - 1).seq());
  }

  /** The session's id. */
  public String sessionId() {
    return session.id();
  }

  /** The seq of the last event; 0 when the log is empty. */
  public long lastSeq() {
    return events.isEmpty() ? 0 : events.get(events.size() - 1).seq();
  }

  /** This archive with {@code events} in place of its log. The same holds for the other members. */
  public SessionArchive withEvents(List<Event> events) {
    return new SessionArchive(session, events, runs, toolCalls, summaries, checkpoints, modelCalls);
  }

  /**
   * A copy holding these runs, sorted as the class description states.
   * @throws InvalidArgumentException naming {@code archive.runs} if the list or an element is null
   */
  public SessionArchive withRuns(List<Run> runs) {
    return new SessionArchive(session, events, runs, toolCalls, summaries, checkpoints, modelCalls);
  }

  /**
   * A copy holding these tool calls, sorted as the class description states.
   * @throws InvalidArgumentException naming {@code archive.toolCalls} if the list or an element is null
   */
  public SessionArchive withToolCalls(List<ToolCall> toolCalls) {
    return new SessionArchive(session, events, runs, toolCalls, summaries, checkpoints, modelCalls);
  }

  /**
   * A copy holding these summaries, sorted as the class description states.
   * @throws InvalidArgumentException naming {@code archive.summaries} if the list or an element is null
   */
  public SessionArchive withSummaries(List<Summary> summaries) {
    return new SessionArchive(session, events, runs, toolCalls, summaries, checkpoints, modelCalls);
  }

  /**
   * A copy holding these checkpoints, sorted by name in code point order.
   * @throws InvalidArgumentException naming {@code archive.checkpoints} if the list or an element is null
   */
  public SessionArchive withCheckpoints(List<Checkpoint> checkpoints) {
    return new SessionArchive(session, events, runs, toolCalls, summaries, checkpoints, modelCalls);
  }

  /**
   * A copy holding these model-call audit rows, sorted as the class description states.
   * @throws InvalidArgumentException naming {@code archive.modelCalls} if the list or an element is null
   */
  public SessionArchive withModelCalls(List<ModelCall> modelCalls) {
    return new SessionArchive(session, events, runs, toolCalls, summaries, checkpoints, modelCalls);
  }

  /** An unmodifiable copy of {@code values} sorted by {@code order}, every element non-null. */
  private static <T> List<T> sorted(String field, List<T> values, Comparator<? super T> order) {
    return Checks.requireElements(field, values, Integer.MAX_VALUE).stream().sorted(order).toList();
  }
}
