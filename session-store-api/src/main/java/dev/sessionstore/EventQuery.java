package dev.sessionstore;

import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Which events of one session to read (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#7">7</a>): seq bounds, a limit taken from one end of
 * the log, and filters. {@code after} and {@code before} are exclusive; {@code since} is inclusive. Filters that are
 * set must all match; several types match any of them.
 *
 * <p>Immutable; each builder method returns a copy. Start from {@link #all()}:
 * <pre>{@code
 * EventQuery.all().after(cursor).first(50)     // the next 50, oldest-first
 * EventQuery.all().last(20)                    // the tail: last 20, oldest-first
 * EventQuery.all().before(oldestLoaded).last(20)  // page backwards
 * EventQuery.all().newestFirst().limit(10).types("user_message", "assistant_message")
 * }</pre>
 *
 * @param after     exclusive lower seq bound, 0 for the start of the log
 * @param before    exclusive upper seq bound, empty for none
 * @param limit     most events to return, empty for all
 * @param direction which end the limit takes from and the order of the result
 * @param runId     only events of this run, or {@code null}
 * @param types     only events of these types, empty for all
 * @param agentId   only events of this agent, or {@code null}
 * @param since     only events at or after this instant, or {@code null}
 */
public record EventQuery(
    long after,
    OptionalLong before,
    OptionalInt limit,
    ReadDirection direction,
    String runId,
    Set<String> types,
    String agentId,
    Instant since) {

  private static final EventQuery ALL = new EventQuery(0, OptionalLong.empty(), OptionalInt.empty(),
      ReadDirection.OLDEST_FIRST, null, Set.of(), null, null);

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public EventQuery {
    Checks.requireNonNegative("after", after);
    Checks.requireNonNull("before", before);
    before.ifPresent(value -> Checks.requirePositive("before", value));
    Checks.requireNonNull("limit", limit);
    limit.ifPresent(value -> Checks.requirePositive("limit", value));
    Checks.requireNonNull("direction", direction);
    Checks.optionalKey("runId", runId);
    Checks.requireNonNull("types", types).forEach(type -> Checks.requireKey("types", type));
    types = Set.copyOf(types);
    Checks.optionalKey("agentId", agentId);
    since = Checks.optionalInstant("since", since);
  }

  /** The whole log, oldest-first. */
  public static EventQuery all() {
    return ALL;
  }

  /** Only events with seq greater than {@code seq}. */
  public EventQuery after(long seq) {
    return new EventQuery(seq, before, limit, direction, runId, types, agentId, since);
  }

  /** Only events with seq less than {@code seq}. */
  public EventQuery before(long seq) {
    Checks.requirePositive("before", seq);
    return new EventQuery(after, OptionalLong.of(seq), limit, direction, runId, types, agentId, since);
  }

  /** At most {@code limit} events from the end {@link #direction()} names. */
  public EventQuery limit(int limit) {
    Checks.requirePositive("limit", limit);
    return new EventQuery(after, before, OptionalInt.of(limit), direction, runId, types, agentId, since);
  }

  /** The first {@code n} matching events, oldest-first. */
  public EventQuery first(int n) {
    return limit(n).direction(ReadDirection.OLDEST_FIRST);
  }

  /** The last {@code n} matching events (the tail), returned oldest-first. */
  public EventQuery last(int n) {
    return limit(n).direction(ReadDirection.TAIL);
  }

  /** Matching events newest-first; combine with {@link #limit(int)} for the newest N. */
  public EventQuery newestFirst() {
    return direction(ReadDirection.NEWEST_FIRST);
  }

  /**
   * A copy that takes a limited read's events from the {@code direction} end of the log.
   * @throws InvalidArgumentException naming {@code direction} if it is null
   */
  public EventQuery direction(ReadDirection direction) {
    return new EventQuery(after, before, limit, Checks.requireNonNull("direction", direction), runId, types,
        agentId, since);
  }

  /**
   * A copy that selects only events of the run {@code runId}.
   * @throws InvalidArgumentException naming {@code runId} if it is not a valid key
   */
  public EventQuery runId(String runId) {
    return new EventQuery(after, before, limit, direction, Checks.requireKey("runId", runId), types, agentId,
        since);
  }

  /** Only events of any of these types. */
  public EventQuery types(String... types) {
    Checks.requireNonNull("types", types);
    return new EventQuery(after, before, limit, direction, runId, new LinkedHashSet<>(Arrays.asList(types)), agentId,
        since);
  }

  /**
   * A copy that selects only events of the agent {@code agentId}.
   * @throws InvalidArgumentException naming {@code agentId} if it is not a valid key
   */
  public EventQuery agentId(String agentId) {
    return new EventQuery(after, before, limit, direction, runId, types, Checks.requireKey("agentId", agentId),
        since);
  }

  /** Only events whose timestamp is at or after {@code since}. */
  public EventQuery since(Instant since) {
    return new EventQuery(after, before, limit, direction, runId, types, agentId,
        Checks.requireNonNull("since", since));
  }
}
