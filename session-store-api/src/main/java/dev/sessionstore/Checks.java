package dev.sessionstore;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The argument rules of the model records, kept once: every record checks its members here, so that every store
 * rejects the same input with the same {@link InvalidArgumentException}. Package-private: the user API does not
 * depend on the adapter SPI. Adapters reach the same rules (not a copy) through {@code dev.sessionstore.spi.Arguments},
 * which calls them through {@link SpiBridge}.
 */
final class Checks {


  private Checks() {
  }

  /**
   * A required key-like string (id, name, type, tenant): not null, not blank, at most {@link Limits#MAX_KEY_LENGTH}
   * chars, no U+0000 and no unpaired surrogate. The value is returned unchanged: no trimming or normalization.
   */
  static String requireKey(String field, String value) {
    if (value == null) {
      throw new InvalidArgumentException(field, "must not be null");
    }
    if (value.isBlank()) {
      throw new InvalidArgumentException(field, "must not be blank");
    }
    return requireText(field, value, Limits.MAX_KEY_LENGTH);
  }

  /** Like {@link #requireKey} but {@code null} is allowed and returned as {@code null}. */
  static String optionalKey(String field, String value) {
    return value == null ? null : requireKey(field, value);
  }

  /**
   * Free text of bounded length that every backend can store: no U+0000, no unpaired surrogate.
   * {@code null} is allowed and returned as is.
   */
  static String requireText(String field, String value, int maxLength) {
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
  static <T> T requireNonNull(String field, T value) {
    if (value == null) {
      throw new InvalidArgumentException(field, "must not be null");
    }
    return value;
  }

  /** A seq or count that must be {@code >= 0}. */
  static long requireNonNegative(String field, long value) {
    if (value < 0) {
      throw new InvalidArgumentException(field, "must be >= 0 (was " + value + ")");
    }
    return value;
  }

  /** A seq or limit that must be {@code >= 1}. */
  static long requirePositive(String field, long value) {
    if (value < 1) {
      throw new InvalidArgumentException(field, "must be >= 1 (was " + value + ")");
    }
    return value;
  }


  /**
   * A required instant, truncated to microseconds: the finest precision every backend keeps, so that what a store
   * returns equals what it later reads back.
   */
  static Instant requireInstant(String field, Instant value) {
    return requireNonNull(field, value).truncatedTo(ChronoUnit.MICROS);
  }

  /** Like {@link #requireInstant} but {@code null} is allowed and returned as {@code null}. */
  static Instant optionalInstant(String field, Instant value) {
    return value == null ? null : value.truncatedTo(ChronoUnit.MICROS);
  }

  /**
   * A list of at most {@code maxSize} non-null elements, returned as an unmodifiable copy (a list that already is one
   * is returned as is), so that what was checked is what is used.
   *
   * @throws InvalidArgumentException naming {@code field} if the list is null or too long, {@code field[i]} for a
   *                                  null element
   */
  static <T> List<T> requireElements(String field, List<T> values, int maxSize) {
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
  static Map<String, String> requireMetadataPatch(String field, Map<String, String> patch) {
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
  static ToolCallStatus requireResolvedStatus(String field, ToolCallStatus status) {
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
  static byte[] requireCheckpointData(String field, byte[] data) {
    requireNonNull(field, data);
    if (data.length > Limits.MAX_CHECKPOINT_BYTES) {
      throw new InvalidArgumentException(field,
          "larger than " + Limits.MAX_CHECKPOINT_BYTES + " bytes (" + data.length + ")");
    }
    return data;
  }

  /**
   * The events of a batch by id, in first-occurrence order, identical in-batch duplicates collapsed: the rule every
   * append and every step applies before it stores anything.
   *
   * @throws InvalidArgumentException if the list or an element is null, or it exceeds {@link Limits#MAX_BATCH_SIZE}
   * @throws DuplicateEventException  if two different events share an id
   */
  static Map<String, NewEvent> distinctEvents(String sessionId, List<NewEvent> events) {
    requireKey("sessionId", sessionId);
    List<NewEvent> input = requireElements("events", events, Limits.MAX_BATCH_SIZE);
    Map<String, NewEvent> distinct = new LinkedHashMap<>();
    for (NewEvent event : input) {
      NewEvent first = distinct.putIfAbsent(event.id(), event);
      if (first != null && !first.equals(event)) {
        throw new DuplicateEventException(sessionId, event.id());
      }
    }
    return distinct;
  }

  /**
   * The one order of ids and names: Unicode code point order, which is also the byte order of their UTF-8 encoding
   * and PostgreSQL's {@code COLLATE "C"}. Negative, zero or positive as {@code a} sorts before, equal to or after
   * {@code b}.
   */
  static int compareIds(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int left = a.codePointAt(i);
      int right = b.codePointAt(j);
      if (left != right) {
        return Integer.compare(left, right);
      }
      i += Character.charCount(left);
      j += Character.charCount(right);
    }
    return Boolean.compare(i < a.length(), j < b.length());
  }
}
