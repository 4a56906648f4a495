package dev.sessionstore;

import dev.sessionstore.spi.Arguments;
import java.time.Instant;

/**
 * One immutable entry of a session's log (SPEC guarantee 2).
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

  public Event {
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requirePositive("seq", seq);
    Arguments.requireKey("id", id);
    Arguments.requireKey("type", type);
    Arguments.optionalKey("runId", runId);
    Arguments.optionalKey("agentId", agentId);
    Arguments.optionalKey("parentId", parentId);
    Arguments.requireNonNull("payload", payload);
    timestamp = Arguments.requireInstant("timestamp", timestamp);
  }
}
