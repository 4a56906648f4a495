package dev.sessionstore;

import java.util.Objects;

/**
 * An argument was rejected before anything was written: null or blank where a value is required, out of range,
 * oversize, not valid JSON, or not storable by every backend (such as U+0000).
 *
 * <p>{@link #field()} names the offending argument, dotted for nested values (for example {@code "event.payload"}).
 */
public class InvalidArgumentException extends SessionStoreException {

  /** The field or parameter that was rejected. */
  private final String field;

  /** An exception naming {@code field} and saying what is wrong with it ({@code problem}). */
  public InvalidArgumentException(String field, String problem) {
    super(Objects.requireNonNull(field, "field") + ": " + problem);
    this.field = field;
  }

  /** As {@link #InvalidArgumentException(String, String)}, keeping {@code cause} (a parser's error) for diagnosis. */
  public InvalidArgumentException(String field, String problem, Throwable cause) {
    super(Objects.requireNonNull(field, "field") + ": " + problem, cause);
    this.field = field;
  }

  /** The name of the rejected argument or field. */
  public String field() {
    return field;
  }
}
