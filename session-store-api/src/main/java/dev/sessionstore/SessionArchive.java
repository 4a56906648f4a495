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
 * rules every adapter shares (<a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#archives">the archive rules</a> of the guarantees).
 *
 * <p>A session whose log was cut at its head (by retention, see {@link Retention}, or by a truncation below such a
 * cut) archives as it is: {@code cutSeq} is the seq through which its log was cut, and {@code events} holds seqs
 * {@code cutSeq + 1} to the last. An import keeps that cut point, so the imported session holds the same seqs and
 * the same last seq, and its next append continues where the exported one would have.
 *
 * @param session     the session record; its {@link Session#lastSeq()} is taken from {@code events} and
 *                    {@code cutSeq} (the given one is ignored), so a file need not carry it
 * @param events      its log as stored: seqs {@code cutSeq + 1} to the last (1 to the last when never cut)
 * @param runs        its runs
 * @param toolCalls   its tool calls, whatever their status, with their deadlines
 * @param summaries   its summaries
 * @param checkpoints its session-scoped checkpoints
 * @param modelCalls  its model-call audit rows; empty when the exporting store kept none
 * @param cutSeq      the seq through which the head of the log was cut, 0 when it never was; when {@code events} is
 *                    empty (the whole log cut) it is also the last seq
 */
public record SessionArchive(
    Session session,
    List<Event> events,
    List<Run> runs,
    List<ToolCall> toolCalls,
    List<Summary> summaries,
    List<Checkpoint> checkpoints,
    List<ModelCall> modelCalls,
    long cutSeq) {

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
    if (cutSeq < 0) {
      throw new InvalidArgumentException("archive.cutSeq", "must be >= 0 (was " + cutSeq + ")");
    }
    session = session.withLastSeq(events.isEmpty() ? cutSeq : events.get(events.size() - 1).seq());
  }

  /**
   * The archive of a session whose log was never cut ({@code cutSeq} 0), checked as the canonical constructor does.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public SessionArchive(Session session, List<Event> events, List<Run> runs, List<ToolCall> toolCalls,
      List<Summary> summaries, List<Checkpoint> checkpoints, List<ModelCall> modelCalls) {
    this(session, events, runs, toolCalls, summaries, checkpoints, modelCalls, 0);
  }

  /** The session's id. */
  public String sessionId() {
    return session.id();
  }

  /** The seq the log ends at: its last event's, or {@link #cutSeq()} when it holds none (0 for an empty log). */
  public long lastSeq() {
    return events.isEmpty() ? cutSeq : events.get(events.size() - 1).seq();
  }

  /** Whether the head of the log was cut: its first seq is past 1, or the whole log was cut. */
  public boolean isCut() {
    return cutSeq > 0;
  }

  /** This archive with {@code events} in place of its log, its cut point kept. The same holds for the other members. */
  public SessionArchive withEvents(List<Event> events) {
    return new SessionArchive(session, events, runs, toolCalls, summaries, checkpoints, modelCalls, cutSeq);
  }

  /**
   * A copy whose log was cut through {@code cutSeq} (0: never cut); the events are not changed.
   * @throws InvalidArgumentException naming {@code archive.cutSeq} if it is negative
   */
  public SessionArchive withCutSeq(long cutSeq) {
    return new SessionArchive(session, events, runs, toolCalls, summaries, checkpoints, modelCalls, cutSeq);
  }

  /**
   * A copy holding these runs, sorted as the class description states.
   * @throws InvalidArgumentException naming {@code archive.runs} if the list or an element is null
   */
  public SessionArchive withRuns(List<Run> runs) {
    return new SessionArchive(session, events, runs, toolCalls, summaries, checkpoints, modelCalls, cutSeq);
  }

  /**
   * A copy holding these tool calls, sorted as the class description states.
   * @throws InvalidArgumentException naming {@code archive.toolCalls} if the list or an element is null
   */
  public SessionArchive withToolCalls(List<ToolCall> toolCalls) {
    return new SessionArchive(session, events, runs, toolCalls, summaries, checkpoints, modelCalls, cutSeq);
  }

  /**
   * A copy holding these summaries, sorted as the class description states.
   * @throws InvalidArgumentException naming {@code archive.summaries} if the list or an element is null
   */
  public SessionArchive withSummaries(List<Summary> summaries) {
    return new SessionArchive(session, events, runs, toolCalls, summaries, checkpoints, modelCalls, cutSeq);
  }

  /**
   * A copy holding these checkpoints, sorted by name in code point order.
   * @throws InvalidArgumentException naming {@code archive.checkpoints} if the list or an element is null
   */
  public SessionArchive withCheckpoints(List<Checkpoint> checkpoints) {
    return new SessionArchive(session, events, runs, toolCalls, summaries, checkpoints, modelCalls, cutSeq);
  }

  /**
   * A copy holding these model-call audit rows, sorted as the class description states.
   * @throws InvalidArgumentException naming {@code archive.modelCalls} if the list or an element is null
   */
  public SessionArchive withModelCalls(List<ModelCall> modelCalls) {
    return new SessionArchive(session, events, runs, toolCalls, summaries, checkpoints, modelCalls, cutSeq);
  }

  /** An unmodifiable copy of {@code values} sorted by {@code order}, every element non-null. */
  private static <T> List<T> sorted(String field, List<T> values, Comparator<? super T> order) {
    return Checks.requireElements(field, values, Integer.MAX_VALUE).stream().sorted(order).toList();
  }
}
