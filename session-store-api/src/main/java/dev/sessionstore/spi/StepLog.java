package dev.sessionstore.spi;

import dev.sessionstore.DuplicateEventException;
import dev.sessionstore.Event;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SeqConflictException;
import dev.sessionstore.Step;
import dev.sessionstore.ToolCallWrite;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * The log part of a {@link Step} (its cut, its events and its expected last seq), decided once for every adapter
 * (guarantees <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#5">5</a>, <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#12">12</a> and <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#16">16</a>). An adapter, holding its per-session lock or transaction:
 * <ol>
 *   <li>looks up the stored events with the step's {@link #ids()} and the log's last seq;</li>
 *   <li>calls {@link #plan}, which checks the duplicate-id rule and the expected seq and says what to change;</li>
 *   <li>applies {@link Plan#cutFrom()} when {@link Plan#cuts()}, appends {@link Plan#fresh()} with consecutive seqs,
 *       and lines the results up with {@link Plan#results}.</li>
 * </ol>
 *
 * <p><b>The rules.</b> An event whose id the log holds before the cut seq (or anywhere, without a cut) is replayed
 * (equal content) or a {@link DuplicateEventException}. A cut that would remove events is skipped when the events it
 * would remove are exactly, in order and with equal content, the step's events not replayed from before the cut: the
 * step was applied already and this is its retry. The expected last seq is checked against the log before the step,
 * and only when the step changes the log (its cut removes an event or it appends one).
 */
public final class StepLog {

  private final String sessionId;
  private final EventBatch batch;
  private final OptionalLong truncateFrom;
  private final OptionalLong expectedLastSeq;
  private final Set<String> foreignRequestEventIds;

  private StepLog(Step step) {
    this.sessionId = step.sessionId();
    this.batch = EventBatch.of(step.sessionId(), step.events());
    this.truncateFrom = step.truncateFrom();
    this.expectedLastSeq = step.expectedLastSeq();
    Set<String> foreign = new LinkedHashSet<>();
    Set<String> own = Set.copyOf(batch.ids());
    for (ToolCallWrite call : step.toolCalls()) {
      if (call.requestEventId() != null && !own.contains(call.requestEventId())) {
        foreign.add(call.requestEventId());
      }
    }
    this.foreignRequestEventIds = foreign;
  }

  /** The log part of {@code step}. */
  public static StepLog of(Step step) {
    return new StepLog(Arguments.requireNonNull("step", step));
  }

  /** The distinct ids of the step's events, whose stored events {@link #plan} needs. */
  public List<String> ids() {
    return batch.ids();
  }

  /**
   * The requesting event ids of the step's tool-call registrations that are not among the step's own events: each
   * must be in the log after the step's cut ({@link Plan#keeps}), or the commit fails with
   * {@link dev.sessionstore.NotFoundException} for kind {@code "event"}.
   */
  public Set<String> foreignRequestEventIds() {
    return Set.copyOf(foreignRequestEventIds);
  }

  /**
   * Decides the step's log changes against the stored log.
   *
   * @param lastSeq  the seq the log ends at before the step (0 when empty or unknown)
   * @param stored   the stored events among {@link #ids()}, by id
   * @param tailFrom the stored events with {@code seq >= s}, oldest-first; called at most once, only with the cut
   *                 seq and only when the tail is no longer than the step's events
   * @throws DuplicateEventException if a stored id that stays has different content
   * @throws SeqConflictException    if the step changes the log and the log does not end at its expected seq
   */
  public Plan plan(long lastSeq, Map<String, Event> stored, LongFunction<List<Event>> tailFrom) {
    long cut = truncateFrom.orElse(Long.MAX_VALUE);
    boolean cutRemoves = cut <= lastSeq;
    Map<String, Event> kept = new HashMap<>();
    stored.forEach((id, event) -> {
      if (event.seq() < cut) {
        kept.put(id, event);
      }
    });
    List<NewEvent> fresh = batch.fresh(kept);
    if (cutRemoves && fresh.size() == lastSeq - cut + 1 && isTail(fresh, tailFrom.apply(cut), kept)) {
      cutRemoves = false;
      fresh = List.of();
    }
    if ((cutRemoves || !fresh.isEmpty()) && expectedLastSeq.isPresent()
        && expectedLastSeq.getAsLong() != lastSeq) {
      throw new SeqConflictException(sessionId, expectedLastSeq.getAsLong(), lastSeq);
    }
    return new Plan(cutRemoves ? cut : 0, cutRemoves ? (int) (lastSeq - cut + 1) : 0, List.copyOf(fresh), kept);
  }

  /** Whether {@code tail} is exactly {@code fresh}; if so its events join {@code kept}. */
  private static boolean isTail(List<NewEvent> fresh, List<Event> tail, Map<String, Event> kept) {
    if (tail.size() != fresh.size()) {
      return false;
    }
    for (int i = 0; i < tail.size(); i++) {
      if (!EventBatch.sameContent(fresh.get(i), tail.get(i))) {
        return false;
      }
    }
    tail.forEach(event -> kept.put(event.id(), event));
    return true;
  }

  /** What one commit of the step changes in the log, and how to report it. */
  public final class Plan {

    private final long cutFrom;
    private final int removes;
    private final List<NewEvent> fresh;
    private final Map<String, Event> kept;

    private Plan(long cutFrom, int removes, List<NewEvent> fresh, Map<String, Event> kept) {
      this.cutFrom = cutFrom;
      this.removes = removes;
      this.fresh = fresh;
      this.kept = kept;
    }

    /** Whether the log is to be cut at {@link #cutFrom()} before the fresh events are appended. */
    public boolean cuts() {
      return removes > 0;
    }

    /** The seq to cut at (that event and every later one go, with summaries whose {@code toSeq >= cutFrom}). */
    public long cutFrom() {
      return cutFrom;
    }

    /** How many events the cut removes; 0 when it does not cut. */
    public int removes() {
      return removes;
    }

    /** The events to append after the cut, in order, with consecutive seqs. */
    public List<NewEvent> fresh() {
      return fresh;
    }

    /** Whether the commit changes the log. */
    public boolean changesLog() {
      return cuts() || !fresh.isEmpty();
    }

    /** Whether the stored {@code event} is still in the log after this commit's cut. */
    public boolean keeps(Event event) {
      return !cuts() || event.seq() < cutFrom;
    }

    /**
     * One stored event per event of the step, in step order, as an unmodifiable list.
     *
     * @param appended the fresh events as stored by this commit
     */
    public List<Event> results(List<Event> appended) {
      Map<String, Event> all = new HashMap<>(kept);
      appended.forEach(event -> all.put(event.id(), event));
      return batch.results(all);
    }
  }
}
