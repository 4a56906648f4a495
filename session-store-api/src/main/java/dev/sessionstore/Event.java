package dev.sessionstore;

import java.time.Instant;

/**
 * One immutable entry of a session's log (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#2">2</a>).
 *
 * @param sessionId session whose log holds it
 * @param seq       position in the log: 1 for the first event, previous + 1 after that, no gaps
 * @param id        idempotency key, unique within the session
 * @param type      event type
 * @param runId     run it belongs to, or {@code null}
 * @param agentId   agent that produced it, or {@code null}
 * @param parentId  parent event id in the entry graph, or {@code null}
 * @param payload   JSON document
 * @param timestamp when it happened (microsecond precision)
 */
public record Event(
    String sessionId,
    long seq,
    String id,
    String type,
    String runId,
    String agentId,
    String parentId,
    Json payload,
    Instant timestamp) {

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public Event {
    Checks.requireKey("sessionId", sessionId);
    Checks.requirePositive("seq", seq);
    Checks.requireKey("id", id);
    Checks.requireKey("type", type);
    Checks.optionalKey("runId", runId);
    Checks.optionalKey("agentId", agentId);
    Checks.optionalKey("parentId", parentId);
    Checks.requireNonNull("payload", payload);
    timestamp = Checks.requireInstant("timestamp", timestamp);
  }
}
