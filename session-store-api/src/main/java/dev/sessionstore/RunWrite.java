package dev.sessionstore;


/**
 * An upsert of a run, keyed by session id and run id. Fields left {@code null} keep their stored value, or take the
 * default for a new run: status {@link RunStatus#PENDING}, usage {@code {}}, no error.
 *
 * <p>Immutable; each {@code with...} returns a copy and rejects {@code null} with {@link InvalidArgumentException}.
 */
public record RunWrite(String id, String sessionId, RunStatus status, Json usage, Json error) {

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public RunWrite {
    Checks.requireKey("run.id", id);
    Checks.requireKey("run.sessionId", sessionId);
  }

  /** A write for run {@code id} of session {@code sessionId}, changing nothing yet. */
  public static RunWrite of(String id, String sessionId) {
    return new RunWrite(id, sessionId, null, null, null);
  }

  /**
   * A copy that sets the run's status.
   * @throws InvalidArgumentException naming {@code run.status} if it is null
   */
  public RunWrite withStatus(RunStatus status) {
    return new RunWrite(id, sessionId, Checks.requireNonNull("run.status", status), usage, error);
  }

  /**
   * A copy that sets the run's usage document.
   * @throws InvalidArgumentException naming {@code run.usage} if it is null
   */
  public RunWrite withUsage(Json usage) {
    return new RunWrite(id, sessionId, status, Checks.requireNonNull("run.usage", usage), error);
  }

  /**
   * A copy that sets the run's error document.
   * @throws InvalidArgumentException naming {@code run.error} if it is null
   */
  public RunWrite withError(Json error) {
    return new RunWrite(id, sessionId, status, usage, Checks.requireNonNull("run.error", error));
  }
}
