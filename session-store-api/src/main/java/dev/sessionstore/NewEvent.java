package dev.sessionstore;

import java.time.Instant;
import java.util.UUID;

/**
 * An event to append. The store assigns its seq (and its timestamp, unless one is given).
 *
 * <p>{@link #id()} is the idempotency key: appending an event whose id the session already stores, with equal
 * content, stores nothing and returns the stored event; with different content it fails with
 * {@link DuplicateEventException} (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#3">3</a>). {@link #of(String)} generates a random id once,
 * so retrying the same {@code NewEvent} instance is idempotent.
 *
 * @param id        idempotency key, unique within the session, byte-exact
 * @param type      required event type, such as {@code "user_message"}
 * @param runId     run this event belongs to, or {@code null}
 * @param agentId   agent that produced it, or {@code null} (several agents may share a session)
 * @param parentId  id of the parent event in the entry graph, or {@code null}
 * @param payload   JSON document, {@code {}} when omitted
 * @param timestamp when it happened, or {@code null} for the store's clock at append (microsecond precision)
 */
public record NewEvent(
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
  public NewEvent {
    Checks.requireKey("event.id", id);
    Checks.requireKey("event.type", type);
    Checks.optionalKey("event.runId", runId);
    Checks.optionalKey("event.agentId", agentId);
    Checks.optionalKey("event.parentId", parentId);
    payload = payload == null ? Json.emptyObject() : payload;
    timestamp = Checks.optionalInstant("event.timestamp", timestamp);
  }

  /** An event of {@code type} with a generated id and an empty payload. */
  public static NewEvent of(String type) {
    return new NewEvent(UUID.randomUUID().toString(), type, null, null, null, null, null);
  }

  /** An event of {@code type} with a generated id. */
  public static NewEvent of(String type, Json payload) {
    return of(type).withPayload(payload);
  }

  /**
   * A copy with the id {@code id}, the idempotency key of the append.
   * @throws InvalidArgumentException naming {@code event.id} if it is not a valid key
   */
  public NewEvent withId(String id) {
    return new NewEvent(id, type, runId, agentId, parentId, payload, timestamp);
  }

  /** This event with {@code runId}; {@code null} for none. The same holds for the other optional fields. */
  public NewEvent withRunId(String runId) {
    return new NewEvent(id, type, runId, agentId, parentId, payload, timestamp);
  }

  /**
   * A copy written by the agent {@code agentId} ({@code null} for none).
   * @throws InvalidArgumentException naming {@code event.agentId} if it is not a valid key
   */
  public NewEvent withAgentId(String agentId) {
    return new NewEvent(id, type, runId, agentId, parentId, payload, timestamp);
  }

  /**
   * A copy whose parent event is {@code parentId} ({@code null} for none).
   * @throws InvalidArgumentException naming {@code event.parentId} if it is not a valid key
   */
  public NewEvent withParentId(String parentId) {
    return new NewEvent(id, type, runId, agentId, parentId, payload, timestamp);
  }

  /**
   * A copy with the payload {@code payload}.
   * @throws InvalidArgumentException naming {@code event.payload} if it is null
   */
  public NewEvent withPayload(Json payload) {
    return new NewEvent(id, type, runId, agentId, parentId, Checks.requireNonNull("event.payload", payload), timestamp);
  }

  /** This event stamped {@code timestamp}; {@code null} leaves the time to the store's clock. */
  public NewEvent withTimestamp(Instant timestamp) {
    return new NewEvent(id, type, runId, agentId, parentId, payload, timestamp);
  }

}
