package dev.sessionstore;

/**
 * An operation that requires an existing entity named one that does not exist: forking or truncating an unknown
 * session, merging metadata into one, forking at an unknown event, scheduling a deadline on an unknown tool call,
 * registering a tool call whose requesting event the log does not hold.
 *
 * <p>Plain lookups never throw this; they return an empty {@code Optional} or an empty list.
 */
public class NotFoundException extends SessionStoreException {

  /** What was not found. */
  private final String kind;
  /** The id that was not found. */
  private final String id;

  /**
   * The {@code kind} of thing ({@code "session"}, {@code "tool call"}, ...) with this {@code id} does not exist;
   * message {@code <kind> not found: <id>}.
   */
  public NotFoundException(String kind, String id) {
    super(kind + " not found: " + id);
    this.kind = kind;
    this.id = id;
  }

  /** What was looked for: {@code "session"}, {@code "event"}, {@code "tool call"}, ... */
  public String kind() {
    return kind;
  }

  /** The identifier that matched nothing. */
  public String id() {
    return id;
  }
}
