package dev.sessionstore;


/**
 * The status of a session. An open set: the constants name the common states, and any other non-blank key is
 * allowed ({@code SessionStatus.of("waiting_for_human")}). Compared by exact value.
 */
public record SessionStatus(String value) {

  public static final SessionStatus ACTIVE = new SessionStatus("active");
  public static final SessionStatus PAUSED = new SessionStatus("paused");
  public static final SessionStatus COMPLETED = new SessionStatus("completed");
  public static final SessionStatus FAILED = new SessionStatus("failed");
  public static final SessionStatus ARCHIVED = new SessionStatus("archived");

  public SessionStatus {
    Checks.requireKey("status", value);
  }

  public static SessionStatus of(String value) {
    return new SessionStatus(value);
  }

  @Override
  public String toString() {
    return value;
  }
}
