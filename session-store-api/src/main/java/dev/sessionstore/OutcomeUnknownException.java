package dev.sessionstore;

/**
 * The backend failed in a way that leaves the call's outcome unknown: its writes may or may not have been applied,
 * typically because the connection was lost while the database committed them and the store could not find out in
 * the time it was allowed (for example: the database stayed down). If they were applied, they were applied whole:
 * batches and other atomic writes are never half stored.
 *
 * <p>Retrying the same call with the same ids is safe and settles the outcome: an event, session, run, tool call,
 * summary or checkpoint written under the same id is stored once, and the retry returns what is stored
 * (guarantees <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#3">3</a> and <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#17">17</a>). Do not retry with fresh ids: that may store the write twice. {@link
 * #isRetryable()} is therefore always {@code true}.
 */
public class OutcomeUnknownException extends StoreFailureException {

  /**
   * The write may or may not have been stored, for the reason {@code message}, from {@code cause} (usually a connection
   * lost during commit). Retryable with the same ids.
   */
  public OutcomeUnknownException(String message, Throwable cause) {
    super(message, true, cause);
  }
}
