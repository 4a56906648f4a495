package dev.sessionstore;

import java.util.Optional;

/**
 * A step carried a fencing token ({@link Step#fence}) that is not the session's current one: another writer claimed
 * the session since ({@link Sessions#claim}), or the token was never issued for it. Nothing of the step was stored.
 * The writer has been superseded and must stop writing to the session; {@link #currentOwner()} and
 * {@link #currentToken()} say who holds the session now. Retrying the same step fails the same way.
 */
public class FencedWriterException extends ConflictException {

  private final String sessionId;
  private final long presentedToken;
  private final long currentToken;
  private final String currentOwner;

  /**
   * @param currentToken the session's current token, 0 when it was never claimed
   * @param currentOwner the owner of the current claim, {@code null} when it was never claimed
   */
  public FencedWriterException(String sessionId, long presentedToken, long currentToken, String currentOwner) {
    super("session " + sessionId + ": fencing token " + presentedToken + " is not the current one; "
        + (currentOwner == null ? "the session was never claimed"
            : "the session is held by " + currentOwner + " with token " + currentToken));
    this.sessionId = sessionId;
    this.presentedToken = presentedToken;
    this.currentToken = currentToken;
    this.currentOwner = currentOwner;
  }

  /** The session the step wrote to. */
  public String sessionId() {
    return sessionId;
  }

  /** The token the refused step carried. */
  public long presentedToken() {
    return presentedToken;
  }

  /** The session's current token when the step was refused; 0 when the session was never claimed. */
  public long currentToken() {
    return currentToken;
  }

  /** Who holds the current claim (the winner), or empty when the session was never claimed. */
  public Optional<String> currentOwner() {
    return Optional.ofNullable(currentOwner);
  }
}
