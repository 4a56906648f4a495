package dev.sessionstore.spi;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Limits;
import dev.sessionstore.ToolCallStatus;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Argument checks shared by the model records and by adapters, so that every store rejects the same input with the
 * same {@link InvalidArgumentException}. {@link ValidatingSessionStore} applies them to every operation before an
 * adapter sees its arguments; adapters use them for the members of records they build themselves.
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

  /**
   * A list of at most {@code maxSize} non-null elements, returned as an unmodifiable copy (a list that already is one
   * is returned as is), so that what was checked is what is used.
   *
   * @throws InvalidArgumentException naming {@code field} if the list is null or too long, {@code field[i]} for a
   *                                  null element
   */
  public static <T> List<T> requireElements(String field, List<T> values, int maxSize) {
    requireNonNull(field, values);
    if (values.size() > maxSize) {
      throw new InvalidArgumentException(field, "more than " + maxSize + " elements (" + values.size() + ")");
    }
    for (int i = 0; i < values.size(); i++) {
      requireNonNull(field + "[" + i + "]", values.get(i));
    }
    return List.copyOf(values);
  }

  /**
   * A metadata patch: at most {@link Limits#MAX_METADATA_ENTRIES} entries, keys as {@link #requireKey}, values free
   * text of at most {@link Limits#MAX_METADATA_VALUE_LENGTH} chars or {@code null} (which removes the key). Returned
   * as an unmodifiable copy in the patch's iteration order.
   *
   * @throws InvalidArgumentException naming {@code field} if the patch is null or too large, {@code field + " key"}
   *                                  for a bad key, {@code field[key]} for a bad value
   */
  public static Map<String, String> requireMetadataPatch(String field, Map<String, String> patch) {
    requireNonNull(field, patch);
    if (patch.size() > Limits.MAX_METADATA_ENTRIES) {
      throw new InvalidArgumentException(field,
          "more than " + Limits.MAX_METADATA_ENTRIES + " entries (" + patch.size() + ")");
    }
    Map<String, String> copy = new LinkedHashMap<>();
    patch.forEach((key, value) -> {
      requireKey(field + " key", key);
      requireText(field + "[" + key + "]", value, Limits.MAX_METADATA_VALUE_LENGTH);
      copy.put(key, value);
    });
    return Collections.unmodifiableMap(copy);
  }

  /**
   * A status a caller may resolve a tool call to: {@link ToolCallStatus#COMPLETED}, {@link ToolCallStatus#FAILED} or
   * {@link ToolCallStatus#CANCELLED}.
   *
   * @throws InvalidArgumentException naming {@code field} if it is null, {@code PENDING} or {@code EXPIRED}
   */
  public static ToolCallStatus requireResolvedStatus(String field, ToolCallStatus status) {
    requireNonNull(field, status);
    if (status == ToolCallStatus.PENDING || status == ToolCallStatus.EXPIRED) {
      throw new InvalidArgumentException(field, "must be COMPLETED, FAILED or CANCELLED (was " + status + ")");
    }
    return status;
  }

  /**
   * Checkpoint bytes: not null, at most {@link Limits#MAX_CHECKPOINT_BYTES}. Returned as is, not copied.
   *
   * @throws InvalidArgumentException naming {@code field} if they are null or too many
   */
  public static byte[] requireCheckpointData(String field, byte[] data) {
    requireNonNull(field, data);
    if (data.length > Limits.MAX_CHECKPOINT_BYTES) {
      throw new InvalidArgumentException(field,
          "larger than " + Limits.MAX_CHECKPOINT_BYTES + " bytes (" + data.length + ")");
    }
    return data;
  }
}
