package dev.sessionstore;


/**
 * An upsert of a run, keyed by session id and run id. Fields left {@code null} keep their stored value, or take the
 * default for a new run: status {@link RunStatus#PENDING}, usage {@code {}}, no error.
 *
 * <p>Immutable; each {@code with...} returns a copy and rejects {@code null} with {@link InvalidArgumentException}.
 */
public record RunWrite(String id, String sessionId, RunStatus status, Json usage, Json error) {

  public RunWrite {
    Checks.requireKey("run.id", id);
    Checks.requireKey("run.sessionId", sessionId);
  }

  /** A write for run {@code id} of session {@code sessionId}, changing nothing yet. */
  public static RunWrite of(String id, String sessionId) {
    return new RunWrite(id, sessionId, null, null, null);
  }

  public RunWrite withStatus(RunStatus status) {
    return new RunWrite(id, sessionId, Checks.requireNonNull("run.status", status), usage, error);
  }

  public RunWrite withUsage(Json usage) {
    return new RunWrite(id, sessionId, status, Checks.requireNonNull("run.usage", usage), error);
  }

  public RunWrite withError(Json error) {
    return new RunWrite(id, sessionId, status, usage, Checks.requireNonNull("run.error", error));
  }
}
