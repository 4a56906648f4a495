package dev.sessionstore.spi;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import java.util.Arrays;
import java.util.Objects;

/**
 * One stored value as the store holds it (after any decorator below which the store sits has transformed it: an
 * encrypting store's sealed form, for instance), and where it is held. Exactly one of {@code document} and
 * {@code blob} is present, as {@link StoredValueKind#blob()} says. Immutable: the blob is copied in and out.
 *
 * @param ref      where the value is held
 * @param document the JSON document, for the document kinds; else {@code null}
 * @param blob     the bytes, for the checkpoint kinds; else {@code null}
 */
public record StoredValue(StoredValueRef ref, Json document, byte[] blob) {

  /**
   * Checks the members and copies the blob.
   * @throws InvalidArgumentException naming {@code value.ref}, {@code value.document} or {@code value.blob} if the
   *                                  ref is null, or the value is missing or of the other form than its kind's
   */
  public StoredValue {
    Arguments.requireNonNull("value.ref", ref);
    if (ref.kind().blob()) {
      Arguments.requireNonNull("value.blob", blob);
      if (document != null) {
        throw new InvalidArgumentException("value.document", ref.kind() + " holds bytes, not a document");
      }
      blob = blob.clone();
    } else {
      Arguments.requireNonNull("value.document", document);
      if (blob != null) {
        throw new InvalidArgumentException("value.blob", ref.kind() + " holds a document, not bytes");
      }
    }
  }

  /**
   * A document value.
   * @throws InvalidArgumentException as the constructor does
   */
  public static StoredValue of(StoredValueRef ref, Json document) {
    return new StoredValue(ref, document, null);
  }

  /**
   * A blob value.
   * @throws InvalidArgumentException as the constructor does
   */
  public static StoredValue of(StoredValueRef ref, byte[] blob) {
    return new StoredValue(ref, null, blob);
  }

  /** A copy of the bytes, or {@code null} for a document kind. */
  @Override
  public byte[] blob() {
    return blob == null ? null : blob.clone();
  }

  /** Whether {@code blob} holds the same bytes as this value's (false for a document kind). */
  public boolean blobEquals(byte[] other) {
    return blob != null && Arrays.equals(blob, other);
  }

  /** Equal when ref, document and bytes are equal. */
  @Override
  public boolean equals(Object other) {
    return other instanceof StoredValue that && ref.equals(that.ref) && Objects.equals(document, that.document)
        && Arrays.equals(blob, that.blob);
  }

  /** Consistent with {@link #equals}. */
  @Override
  public int hashCode() {
    return Objects.hash(ref, document) * 31 + Arrays.hashCode(blob);
  }

  /** The ref and the size of the value, never its content. */
  @Override
  public String toString() {
    return "StoredValue[" + ref + ", " + (blob != null ? blob.length + " bytes" : document.text().length() + " chars")
        + "]";
  }
}
