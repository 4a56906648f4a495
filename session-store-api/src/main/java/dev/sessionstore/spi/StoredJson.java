package dev.sessionstore.spi;

import dev.sessionstore.Json;
import dev.sessionstore.internal.ApiAccess;

/**
 * For adapters: the way back from a store's own document column to a {@link Json} without checking the text again.
 * Every document a store writes is a {@code Json}, validated when it was made; what the store reads back from where
 * it wrote that document's {@link Json#text()} is that text, and is handed out as it is, so a read decodes nothing
 * (a tree is parsed only when {@link Json#tree()} or {@link Json#as} asks for one).
 *
 * <p>Only text a store wrote from a {@code Json} may come back this way: text of any other origin (a caller, a file,
 * a column other clients write) goes through {@link Json#of} or {@link Json#parse}, which check it. Application code
 * has no use for this class.
 *
 * <p>{@code Json} has no public member for this: the API package hands its package-private construction to this
 * class only, through {@link ApiAccess}, so the user's view of {@code Json} is made only of checked operations.
 */
public final class StoredJson {

  private static final ApiAccess API = ApiAccess.get();

  private StoredJson() {
  }

  /**
   * The document whose text the store wrote from a {@link Json} and read back unchanged: not parsed or checked
   * again.
   *
   * @throws dev.sessionstore.InvalidArgumentException naming the field {@code json} if {@code text} is null or
   *                                                   longer than any document
   *                                                   ({@link dev.sessionstore.Limits#MAX_JSON_LENGTH}): it did not
   *                                                   come from a {@code Json}
   */
  public static Json of(String text) {
    return API.storedJson(text);
  }
}
