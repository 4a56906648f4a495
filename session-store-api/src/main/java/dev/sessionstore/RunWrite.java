package dev.sessionstore;

import dev.sessionstore.spi.Arguments;
import java.time.Instant;
import java.util.Objects;

/**
 * An upsert of a run. Fields left {@code null} keep their stored value, or take the default for a new run: status
 * {@link RunStatus#PENDING}, usage {@code {}}, no error.
 */
public record RunWrite(String id, String sessionId, RunStatus status, Json usage, Json error) {

  public RunWrite {
    Arguments.requireKey("run.id", id);
    Arguments.requireKey("run.sessionId", sessionId);
  }

  public static RunWrite of(String id, String sessionId) {
    return new RunWrite(id, sessionId, null, null, null);
  }

  public RunWrite withStatus(RunStatus status) {
    return new RunWrite(id, sessionId, Objects.requireNonNull(status, "status"), usage, error);
  }

  public RunWrite withUsage(Json usage) {
    return new RunWrite(id, sessionId, status, Objects.requireNonNull(usage, "usage"), error);
  }

  public RunWrite withError(Json error) {
    return new RunWrite(id, sessionId, status, usage, Objects.requireNonNull(error, "error"));
  }

  /**
   * The run that results from applying this write to {@code stored} ({@code null} when new) at {@code now}.
   *
   * @throws ConflictException if {@code stored} belongs to another session
   */
  public Run applyTo(Run stored, Instant now) {
    if (stored == null) {
      return new Run(id, sessionId, status == null ? RunStatus.PENDING : status,
          usage == null ? Json.emptyObject() : usage, error, now, now);
    }
    if (!stored.sessionId().equals(sessionId)) {
      throw new ConflictException("run " + id + " belongs to session " + stored.sessionId() + ", not " + sessionId);
    }
    return new Run(id, sessionId,
        status == null ? stored.status() : status,
        usage == null ? stored.usage() : usage,
        error == null ? stored.error() : error,
        stored.createdAt(), now);
  }
}
