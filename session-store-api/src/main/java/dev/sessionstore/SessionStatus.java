package dev.sessionstore;


/**
 * The status of a session. An open set: the constants name the common states, and any other non-blank key is
 * allowed ({@code SessionStatus.of("waiting_for_human")}). Compared by exact value.
 */
public record SessionStatus(String value) {

  /** {@code "active"}: in use; the status of a new session unless it states another. */
  public static final SessionStatus ACTIVE = new SessionStatus("active");
  /** {@code "paused"}: set aside, to be continued. */
  public static final SessionStatus PAUSED = new SessionStatus("paused");
  /** {@code "completed"}: its work is done. */
  public static final SessionStatus COMPLETED = new SessionStatus("completed");
  /** {@code "failed"}: its work ended with an error. */
  public static final SessionStatus FAILED = new SessionStatus("failed");
  /** {@code "archived"}: kept for the record only. */
  public static final SessionStatus ARCHIVED = new SessionStatus("archived");

  /**
   * A status with this exact value.
   * @throws InvalidArgumentException naming {@code status} if {@code value} is not a valid key (null, blank, too long,
   *   U+0000 or an unpaired surrogate)
   */
  public SessionStatus {
    Checks.requireKey("status", value);
  }

  /**
   * The status with this exact value; equal to the constant of the same value.
   * @throws InvalidArgumentException naming {@code status} if {@code value} is not a valid key
   */
  public static SessionStatus of(String value) {
    return new SessionStatus(value);
  }

  @Override
  public String toString() {
    return value;
  }
}
