package dev.sessionstore;

import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * An upsert of a session (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#3">3</a>). Fields left {@code null} keep their stored value (or take
 * the default when the session is new: status {@link SessionStatus#ACTIVE}, settings {@code {}}, no name, tenant or
 * agent, no expiry). {@link #metadata()} is a patch merged into the stored map: a key mapped to {@code null} removes
 * that key. The expiry is set by {@link #withExpiresAt}, removed by {@link #withoutExpiry} and otherwise kept.
 *
 * <p>Immutable; each {@code with...} returns a copy.
 *
 * @param expiresAt    the expiry to set (microsecond precision), or {@code null} to keep the stored one
 * @param clearsExpiry whether the write removes the stored expiry; never together with {@code expiresAt}
 */
public record SessionWrite(
    String id,
    String name,
    String tenant,
    String agentId,
    SessionStatus status,
    Json settings,
    Map<String, String> metadata,
    Instant expiresAt,
    boolean clearsExpiry) {

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public SessionWrite {
    Checks.requireKey("session.id", id);
    Checks.optionalKey("session.name", name);
    Checks.optionalKey("session.tenant", tenant);
    Checks.optionalKey("session.agentId", agentId);
    metadata = Checks.requireMetadataPatch("session.metadata", metadata);
    expiresAt = Checks.optionalInstant("session.expiresAt", expiresAt);
    if (expiresAt != null && clearsExpiry) {
      throw new InvalidArgumentException("session.expiresAt", "cannot be set by a write that clears the expiry");
    }
  }

  /** A write for the session {@code id}, changing nothing yet. */
  public static SessionWrite of(String id) {
    return new SessionWrite(id, null, null, null, null, null, Map.of(), null, false);
  }

  /** A write for a new session with a generated id (a random UUID). */
  public static SessionWrite newSession() {
    return of(UUID.randomUUID().toString());
  }

  /**
   * A copy that sets the session's unique name.
   * @throws InvalidArgumentException naming {@code session.name} if it is null or not a valid key
   */
  public SessionWrite withName(String name) {
    return new SessionWrite(id, Checks.requireNonNull("session.name", name), tenant, agentId, status, settings,
        metadata, expiresAt, clearsExpiry);
  }

  /**
   * A copy that sets the session's tenant.
   * @throws InvalidArgumentException naming {@code session.tenant} if it is null or not a valid key
   */
  public SessionWrite withTenant(String tenant) {
    return new SessionWrite(id, name, Checks.requireNonNull("session.tenant", tenant), agentId, status, settings,
        metadata, expiresAt, clearsExpiry);
  }

  /**
   * A copy that sets the session's agent.
   * @throws InvalidArgumentException naming {@code session.agentId} if it is null or not a valid key
   */
  public SessionWrite withAgentId(String agentId) {
    return new SessionWrite(id, name, tenant, Checks.requireNonNull("session.agentId", agentId), status, settings,
        metadata, expiresAt, clearsExpiry);
  }

  /**
   * A copy that sets the session's status.
   * @throws InvalidArgumentException naming {@code session.status} if it is null
   */
  public SessionWrite withStatus(SessionStatus status) {
    return new SessionWrite(id, name, tenant, agentId, Checks.requireNonNull("session.status", status), settings,
        metadata, expiresAt, clearsExpiry);
  }

  /** Replaces the settings (the session's config template) as a whole. */
  public SessionWrite withSettings(Json settings) {
    return new SessionWrite(id, name, tenant, agentId, status, Checks.requireNonNull("session.settings", settings),
        metadata, expiresAt, clearsExpiry);
  }

  /**
   * A copy that sets the session's expiry (truncated to microseconds), replacing any stored one. The store keeps the
   * session past it; {@link SessionQuery#expiresBefore} finds it.
   * @throws InvalidArgumentException naming {@code session.expiresAt} if it is null
   */
  public SessionWrite withExpiresAt(Instant expiresAt) {
    return new SessionWrite(id, name, tenant, agentId, status, settings, metadata,
        Checks.requireNonNull("session.expiresAt", expiresAt), false);
  }

  /** A copy that removes the session's expiry: the session then never expires. */
  public SessionWrite withoutExpiry() {
    return new SessionWrite(id, name, tenant, agentId, status, settings, metadata, null, true);
  }

  /** Adds entries to the metadata patch; a {@code null} value removes that key on write. */
  public SessionWrite withMetadata(Map<String, String> patch) {
    Map<String, String> merged = new LinkedHashMap<>(metadata);
    merged.putAll(Checks.requireNonNull("session.metadata", patch));
    return new SessionWrite(id, name, tenant, agentId, status, settings, merged, expiresAt, clearsExpiry);
  }

  /** Adds one entry to the metadata patch; a {@code null} value removes that key on write. */
  public SessionWrite withMetadata(String key, String value) {
    Map<String, String> entry = new HashMap<>();
    entry.put(key, value);
    return withMetadata(entry);
  }
}
