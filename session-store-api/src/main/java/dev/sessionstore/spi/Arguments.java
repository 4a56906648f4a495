package dev.sessionstore.spi;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Limits;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.internal.ApiAccess;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Argument checks shared by the model records and by adapters, so that every store rejects the same input with the
 * same {@link InvalidArgumentException}. {@link ValidatingSessionStore} applies them to every operation before an
 * adapter sees its arguments; adapters use them for the members of records they build themselves.
 *
 * <p>The rules exist once, in the API package, where the records check their own members with them; this class is
 * the adapters' public door to the same code (through {@link ApiAccess}), so a record and an adapter can never
 * disagree on what is valid.
 */
public final class Arguments {

  private static final ApiAccess API = ApiAccess.get();

  private Arguments() {
  }

  /**
   * A required key-like string (id, name, type, tenant): not null, not blank, at most {@link Limits#MAX_KEY_LENGTH}
   * chars, no U+0000 and no unpaired surrogate. The value is returned unchanged: no trimming or normalization.
   */
  public static String requireKey(String field, String value) {
    return API.requireKey(field, value);
  }

  /** Like {@link #requireKey} but {@code null} is allowed and returned as {@code null}. */
  public static String optionalKey(String field, String value) {
    return API.optionalKey(field, value);
  }

  /**
   * Free text of bounded length that every backend can store: no U+0000, no unpaired surrogate.
   * {@code null} is allowed and returned as is.
   */
  public static String requireText(String field, String value, int maxLength) {
    return API.requireText(field, value, maxLength);
  }

  /** A non-null reference. */
  public static <T> T requireNonNull(String field, T value) {
    return API.requireNonNull(field, value);
  }

  /** A seq or count that must be {@code >= 0}. */
  public static long requireNonNegative(String field, long value) {
    return API.requireNonNegative(field, value);
  }

  /** A seq or limit that must be {@code >= 1}. */
  public static long requirePositive(String field, long value) {
    return API.requirePositive(field, value);
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
    return API.requireInstant(field, value);
  }

  /** Like {@link #requireInstant} but {@code null} is allowed and returned as {@code null}. */
  public static Instant optionalInstant(String field, Instant value) {
    return API.optionalInstant(field, value);
  }

  /**
   * A list of at most {@code maxSize} non-null elements, returned as an unmodifiable copy (a list that already is one
   * is returned as is), so that what was checked is what is used.
   *
   * @throws InvalidArgumentException naming {@code field} if the list is null or too long, {@code field[i]} for a
   *                                  null element
   */
  public static <T> List<T> requireElements(String field, List<T> values, int maxSize) {
    return API.requireElements(field, values, maxSize);
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
    return API.requireMetadataPatch(field, patch);
  }

  /**
   * A status a caller may resolve a tool call to: {@link ToolCallStatus#COMPLETED}, {@link ToolCallStatus#FAILED} or
   * {@link ToolCallStatus#CANCELLED}.
   *
   * @throws InvalidArgumentException naming {@code field} if it is null, {@code PENDING} or {@code EXPIRED}
   */
  public static ToolCallStatus requireResolvedStatus(String field, ToolCallStatus status) {
    return API.requireResolvedStatus(field, status);
  }

  /**
   * Checkpoint bytes: not null, at most {@link Limits#MAX_CHECKPOINT_BYTES}. Returned as is, not copied.
   *
   * @throws InvalidArgumentException naming {@code field} if they are null or too many
   */
  public static byte[] requireCheckpointData(String field, byte[] data) {
    return API.requireCheckpointData(field, data);
  }
}
