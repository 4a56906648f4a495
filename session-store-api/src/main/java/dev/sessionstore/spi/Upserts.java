package dev.sessionstore.spi;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.Limits;
import dev.sessionstore.Run;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.Session;
import dev.sessionstore.SessionStatus;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * The upsert rule of guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#3">3</a>, applied once for every adapter that reads, merges and writes: a
 * field a write leaves {@code null} keeps its stored value, or takes the default when the record is new; metadata is
 * merged (a {@code null} value removes its key). Each method returns the record as it is to be stored at {@code now},
 * given the stored one ({@code null} when new).
 */
public final class Upserts {

  private Upserts() {
  }

  /**
   * The session {@code write} makes of {@code stored}: defaults status active, settings {@code {}}, no metadata, no
   * expiry; the last seq is the stored one (0 when new).
   */
  public static Session session(SessionWrite write, Session stored, Instant now) {
    if (stored == null) {
      return new Session(write.id(), write.name(), write.tenant(), write.agentId(),
          write.status() == null ? SessionStatus.ACTIVE : write.status(),
          write.settings() == null ? Json.emptyObject() : write.settings(),
          mergeMetadata(Map.of(), write.metadata()), null, now, now, write.expiresAt(), 0);
    }
    return new Session(write.id(),
        write.name() == null ? stored.name() : write.name(),
        write.tenant() == null ? stored.tenant() : write.tenant(),
        write.agentId() == null ? stored.agentId() : write.agentId(),
        write.status() == null ? stored.status() : write.status(),
        write.settings() == null ? stored.settings() : write.settings(),
        mergeMetadata(stored.metadata(), write.metadata()),
        stored.forkedFrom(),
        stored.createdAt(),
        now,
        expiry(write, stored.expiresAt()),
        stored.lastSeq());
  }

  /** The expiry {@code write} leaves on a session whose stored expiry is {@code stored}: set, cleared or kept. */
  private static Instant expiry(SessionWrite write, Instant stored) {
    if (write.clearsExpiry()) {
      return null;
    }
    return write.expiresAt() == null ? stored : write.expiresAt();
  }

  /**
   * {@code stored} with {@code patch} applied: null values remove keys, others set them.
   *
   * @throws InvalidArgumentException naming {@code session.metadata} if the result has more than
   *                                  {@link Limits#MAX_METADATA_ENTRIES} entries
   */
  public static Map<String, String> mergeMetadata(Map<String, String> stored, Map<String, String> patch) {
    Map<String, String> merged = new HashMap<>(stored);
    patch.forEach((key, value) -> {
      if (value == null) {
        merged.remove(key);
      } else {
        merged.put(key, value);
      }
    });
    if (merged.size() > Limits.MAX_METADATA_ENTRIES) {
      throw new InvalidArgumentException("session.metadata",
          "more than " + Limits.MAX_METADATA_ENTRIES + " entries (" + merged.size() + ")");
    }
    return merged;
  }

  /** The run {@code write} makes of {@code stored}: defaults status pending, usage {@code {}}, no error. */
  public static Run run(RunWrite write, Run stored, Instant now) {
    if (stored == null) {
      return new Run(write.id(), write.sessionId(), write.status() == null ? RunStatus.PENDING : write.status(),
          write.usage() == null ? Json.emptyObject() : write.usage(), write.error(), now, now);
    }
    return new Run(write.id(), write.sessionId(),
        write.status() == null ? stored.status() : write.status(),
        write.usage() == null ? stored.usage() : write.usage(),
        write.error() == null ? stored.error() : write.error(),
        stored.createdAt(), now);
  }

  /**
   * The call {@code write} makes of {@code stored}: a new call is pending with the write's deadline; a stored call
   * takes the write's descriptive fields (run, requesting event, tool name, arguments) and keeps its status, result,
   * deadline and creation time.
   */
  public static ToolCall toolCall(ToolCallWrite write, ToolCall stored, Instant now) {
    if (stored == null) {
      return new ToolCall(write.id(), write.sessionId(), write.runId(), write.requestEventId(), write.toolName(),
          write.arguments(), ToolCallStatus.PENDING, null, write.deadline(), now, now);
    }
    return new ToolCall(write.id(), write.sessionId(), write.runId(), write.requestEventId(), write.toolName(),
        write.arguments(), stored.status(), stored.result(), stored.deadline(), stored.createdAt(), now);
  }
}
