package dev.sessionstore;


/**
 * Names a checkpoint: global ({@code sessionId == null}) or owned by a session (deleted with it).
 */
public record CheckpointKey(String sessionId, String name) {

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public CheckpointKey {
    Checks.optionalKey("checkpoint.sessionId", sessionId);
    Checks.requireKey("checkpoint.name", name);
  }

  /** A checkpoint owned by no session, such as a runner checkpoint. */
  public static CheckpointKey global(String name) {
    return new CheckpointKey(null, name);
  }

  /** A checkpoint owned by {@code sessionId}, such as its suspended turn state. */
  public static CheckpointKey of(String sessionId, String name) {
    return new CheckpointKey(Checks.requireKey("checkpoint.sessionId", sessionId), name);
  }

  /** Whether the checkpoint belongs to a session. */
  public boolean isSessionScoped() {
    return sessionId != null;
  }
}
