package dev.sessionstore.spi;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Limits;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Argument checks shared by the model records and by adapters, so that every store rejects the same input with the
 * same {@link InvalidArgumentException}. Adapter authors call these at the top of each operation, before any write.
 */
public final class Arguments {

  private Arguments() {
  }

  /**
   * A required key-like string (id, name, type, tenant): not null, not blank, at most {@link Limits#MAX_KEY_LENGTH}
   * chars, no U+0000 and no unpaired surrogate. The value is returned unchanged: no trimming or normalization.
   */
  public static String requireKey(String field, String value) {
    if (value == null) {
      throw new InvalidArgumentException(field, "must not be null");
    }
    if (value.isBlank()) {
      throw new InvalidArgumentException(field, "must not be blank");
    }
    return requireText(field, value, Limits.MAX_KEY_LENGTH);
  }

  /** Like {@link #requireKey} but {@code null} is allowed and returned as {@code null}. */
  public static String optionalKey(String field, String value) {
    return value == null ? null : requireKey(field, value);
  }

  /**
   * Free text of bounded length that every backend can store: no U+0000, no unpaired surrogate.
   * {@code null} is allowed and returned as is.
   */
  public static String requireText(String field, String value, int maxLength) {
    if (value == null) {
      return null;
    }
    if (value.length() > maxLength) {
      throw new InvalidArgumentException(field, "longer than " + maxLength + " chars (" + value.length() + ")");
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\u0000') {
        throw new InvalidArgumentException(field, "contains U+0000, which not every backend can store");
      }
      if (Character.isHighSurrogate(c)) {
        if (i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
          i++;
          continue;
        }
        throw new InvalidArgumentException(field, "contains an unpaired surrogate at index " + i);
      }
      if (Character.isLowSurrogate(c)) {
        throw new InvalidArgumentException(field, "contains an unpaired surrogate at index " + i);
      }
    }
    return value;
  }

  /** A non-null reference. */
  public static <T> T requireNonNull(String field, T value) {
    if (value == null) {
      throw new InvalidArgumentException(field, "must not be null");
    }
    return value;
  }

  /** A seq or count that must be {@code >= 0}. */
  public static long requireNonNegative(String field, long value) {
    if (value < 0) {
      throw new InvalidArgumentException(field, "must be >= 0 (was " + value + ")");
    }
    return value;
  }

  /** A seq or limit that must be {@code >= 1}. */
  public static long requirePositive(String field, long value) {
    if (value < 1) {
      throw new InvalidArgumentException(field, "must be >= 1 (was " + value + ")");
    }
    return value;
  }

  /** A duration that must be non-null and not negative. */
  public static Duration requireNonNegative(String field, Duration value) {
    requireNonNull(field, value);
    if (value.isNegative()) {
      throw new InvalidArgumentException(field, "must not be negative (was " + value + ")");
    }
    return value;
  }

  /**
   * A required instant, truncated to microseconds: the finest precision every backend keeps, so that what a store
   * returns equals what it later reads back.
   */
  public static Instant requireInstant(String field, Instant value) {
    return requireNonNull(field, value).truncatedTo(ChronoUnit.MICROS);
  }

  /** Like {@link #requireInstant} but {@code null} is allowed and returned as {@code null}. */
  public static Instant optionalInstant(String field, Instant value) {
    return value == null ? null : value.truncatedTo(ChronoUnit.MICROS);
  }
}
