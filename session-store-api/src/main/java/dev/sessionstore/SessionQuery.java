package dev.sessionstore;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Which sessions to list (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#13">13</a>). Every filter that is set must match; metadata filters
 * match exact key-value pairs. Results come in a stable order (creation time, then id in
 * code point order), so paging with {@link #after(String)} or
 * {@link #offset(int)} never skips or repeats a session that existed throughout.
 *
 * <p>Immutable; each builder method returns a copy. Start from {@link #all()}.
 *
 * <p>{@link #expiresBefore(Instant)} selects by {@link Session#expiresAt()}; the project's adapters answer it from an
 * index on expiries (Cassandra where the cluster has storage-attached indexes), so its cost grows with the sessions
 * that match, not with the store. It keeps the same order and paging.
 *
 * @param expiresBefore only sessions whose expiry is set and strictly before this instant; {@code null} for any
 * @param cursor an opaque cursor returned as {@link SessionPage#nextCursor()}; {@code null} to start at the beginning
 * @param offset sessions to skip; cannot be combined with a cursor
 */
public record SessionQuery(
    SessionStatus status,
    String agentId,
    String name,
    String tenant,
    Map<String, String> metadata,
    Instant expiresBefore,
    OptionalInt limit,
    String cursor,
    int offset) {

  private static final SessionQuery ALL =
      new SessionQuery(null, null, null, null, Map.of(), null, OptionalInt.empty(), null, 0);

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public SessionQuery {
    Checks.requireNonNull("metadata", metadata).forEach((key, value) -> {
      Checks.requireKey("metadata key", key);
      Checks.requireNonNull("metadata[" + key + "]", value);
    });
    metadata = Map.copyOf(metadata);
    expiresBefore = Checks.optionalInstant("expiresBefore", expiresBefore);
    Checks.requireNonNull("limit", limit);
    limit.ifPresent(value -> Checks.requirePositive("limit", value));
    Checks.requireNonNegative("offset", offset);
    if (cursor != null && offset > 0) {
      throw new InvalidArgumentException("offset", "cannot be combined with a cursor");
    }
  }

  /** Every session, oldest first, no limit. */
  public static SessionQuery all() {
    return ALL;
  }

  /**
   * A copy that selects only sessions with this status.
   * @throws InvalidArgumentException naming {@code status} if it is null
   */
  public SessionQuery status(SessionStatus status) {
    return new SessionQuery(Checks.requireNonNull("status", status), agentId, name, tenant, metadata,
        expiresBefore, limit, cursor, offset);
  }

  /**
   * A copy that selects only sessions of this agent.
   * @throws InvalidArgumentException naming {@code agentId} if it is not a valid key
   */
  public SessionQuery agentId(String agentId) {
    return new SessionQuery(status, Checks.requireKey("agentId", agentId), name, tenant, metadata,
        expiresBefore, limit, cursor, offset);
  }

  /**
   * A copy that selects only the session with this name.
   * @throws InvalidArgumentException naming {@code name} if it is not a valid key
   */
  public SessionQuery name(String name) {
    return new SessionQuery(status, agentId, Checks.requireKey("name", name), tenant, metadata,
        expiresBefore, limit, cursor, offset);
  }

  /**
   * A copy that selects only sessions of this tenant.
   * @throws InvalidArgumentException naming {@code tenant} if it is not a valid key
   */
  public SessionQuery tenant(String tenant) {
    return new SessionQuery(status, agentId, name, Checks.requireKey("tenant", tenant), metadata,
        expiresBefore, limit, cursor, offset);
  }

  /** Only sessions whose metadata maps {@code key} to exactly {@code value}. */
  public SessionQuery metadata(String key, String value) {
    Map<String, String> merged = new LinkedHashMap<>(metadata);
    merged.put(Checks.requireKey("metadata key", key),
        Checks.requireNonNull("metadata[" + key + "]", value));
    return new SessionQuery(status, agentId, name, tenant, Collections.unmodifiableMap(merged), expiresBefore,
        limit, cursor, offset);
  }

  /**
   * A copy that selects only sessions whose {@link Session#expiresAt() expiry} is set and strictly before
   * {@code instant} (truncated to microseconds, as expiries are): a session expiring exactly at it is not selected.
   * @throws InvalidArgumentException naming {@code expiresBefore} if it is null
   */
  public SessionQuery expiresBefore(Instant instant) {
    return new SessionQuery(status, agentId, name, tenant, metadata, Checks.requireNonNull("expiresBefore", instant),
        limit, cursor, offset);
  }

  /** At most {@code limit} sessions (at least 1). */
  public SessionQuery limit(int limit) {
    Checks.requirePositive("limit", limit);
    return new SessionQuery(status, agentId, name, tenant, metadata, expiresBefore, OptionalInt.of(limit),
        cursor, offset);
  }

  /** Continue after the page that returned {@code cursor}. */
  public SessionQuery after(String cursor) {
    if (Checks.requireNonNull("cursor", cursor).isBlank()) {
      throw new InvalidArgumentException("cursor", "must not be blank");
    }
    return new SessionQuery(status, agentId, name, tenant, metadata, expiresBefore, limit, cursor, offset);
  }

  /** Skip the first {@code offset} matching sessions. */
  public SessionQuery offset(int offset) {
    return new SessionQuery(status, agentId, name, tenant, metadata, expiresBefore, limit, cursor, offset);
  }

  /** Whether {@code session} passes every filter of this query (cursor and offset aside). */
  public boolean matches(Session session) {
    return (status == null || status.equals(session.status()))
        && (agentId == null || agentId.equals(session.agentId()))
        && (name == null || name.equals(session.name()))
        && (tenant == null || tenant.equals(session.tenant()))
        && (expiresBefore == null || session.expiry().filter(expiresBefore::isAfter).isPresent())
        && metadata.entrySet().stream()
            .allMatch(entry -> entry.getValue().equals(session.metadata().get(entry.getKey())));
  }
}
