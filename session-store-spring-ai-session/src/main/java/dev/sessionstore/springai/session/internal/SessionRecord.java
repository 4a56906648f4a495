package dev.sessionstore.springai.session.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sessionstore.Json;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.springai.internal.MetadataValues;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.springframework.ai.session.Session;

/**
 * A spring-ai-session {@link Session} as a session of the store, and back: the same id, the user id as the tenant
 * (so sessions by user are the store's tenant listing), the expiry as the session's expiry
 * ({@link dev.sessionstore.Session#expiresAt()}, which the store's query by expiry finds by index), and the rest in
 * the settings document under {@value #MEMBER}:
 * <pre>{@code
 * {"springAiSession": {"userId": "...", "createdAt": "2026-...Z",
 *                      "metadata": {"model": {"t": "string", "v": "..."}}}}      // typed, keys sorted
 * }</pre>
 * A session of the store without that member (written by another bridge) is not one of this repository's sessions.
 * The marker metadata entry {@value #MARKER} = {@code true} lets the expiry query list only these sessions.
 */
public final class SessionRecord {

  /** The settings member holding the session's fields. */
  public static final String MEMBER = "springAiSession";

  /** The metadata entry every session of this repository carries. */
  public static final String MARKER = "spring-ai-session";

  private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);

  private SessionRecord() {
  }

  /** The write that stores {@code session}. */
  public static SessionWrite write(Session session) {
    ObjectNode settings = NODES.objectNode();
    ObjectNode fields = settings.putObject(MEMBER);
    fields.put("userId", session.userId()).put("createdAt", session.createdAt().toString());
    ObjectNode metadata = fields.putObject("metadata");
    new TreeMap<>(session.metadata()).forEach((key, value) -> metadata.set(key, MetadataValues.write(value)));
    SessionWrite write = SessionWrite.of(session.id()).withTenant(session.userId()).withSettings(Json.from(settings))
        .withMetadata(MARKER, "true");
    return session.expiresAt() == null ? write.withoutExpiry() : write.withExpiresAt(session.expiresAt());
  }

  /** The spring-ai-session session {@code stored} holds, empty when it is not one of this repository's. */
  public static Optional<Session> read(dev.sessionstore.Session stored) {
    JsonNode fields = stored.settings().tree().path(MEMBER);
    if (!fields.isObject()) {
      return Optional.empty();
    }
    Map<String, Object> metadata = new LinkedHashMap<>();
    fields.path("metadata").properties()
        .forEach(member -> metadata.put(member.getKey(), MetadataValues.read(member.getValue())));
    return Optional.of(Session.builder().id(stored.id()).userId(fields.path("userId").asText())
        .createdAt(Instant.parse(fields.path("createdAt").asText())).expiresAt(stored.expiresAt()).metadata(metadata)
        .build());
  }
}
