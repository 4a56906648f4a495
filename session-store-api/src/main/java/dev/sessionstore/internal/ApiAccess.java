package dev.sessionstore.internal;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.ToolCallStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The one door from the adapter SPI ({@code dev.sessionstore.spi}) to what the user API ({@code dev.sessionstore})
 * keeps package-private, in the manner of the JDK's {@code SharedSecrets}: the API package installs the only
 * implementation once, and the SPI calls through it. So the rules of the records exist once, in the API package,
 * and the API package never refers to the SPI package ({@code spi} depends on the API, never the reverse).
 *
 * <p>The door is closed to everyone else, as the JDK closes its own by not exporting it: {@link #install} accepts only
 * the API package's implementation, from that implementation's static initializer, and only once; {@link #get} hands
 * the implementation only to classes of the SPI package loaded with this one. Any other caller gets an
 * {@link IllegalCallerException}, so application code can neither replace the argument checks of every adapter nor
 * obtain unchecked constructions such as {@link #storedJson}.
 *
 * <p>Not for application or adapter code: adapters use {@code dev.sessionstore.spi.Arguments},
 * {@code dev.sessionstore.spi.StoredJson}, {@code dev.sessionstore.spi.IdOrder},
 * {@code dev.sessionstore.spi.ResumeRule} and {@code dev.sessionstore.spi.EventBatch}, which document the guarantees.
 * This class may change in any release.
 */
public abstract class ApiAccess {

  private static final String IMPLEMENTATION = "dev.sessionstore.SpiBridge";
  private static final String SPI_PACKAGE = "dev.sessionstore.spi";
  private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
  private static ApiAccess installed;

  /** For the API package's implementation only. */
  protected ApiAccess() {
  }

  /**
   * Installs the implementation; called once, by the API package's implementation class when it is initialized.
   *
   * @throws IllegalCallerException if the caller is not that class or {@code access} is not its instance
   * @throws IllegalStateException  if an implementation is installed already
   */
  public static synchronized void install(ApiAccess access) {
    Class<?> caller = WALKER.getCallerClass();
    if (!isLibraryClass(caller) || !caller.getName().equals(IMPLEMENTATION) || access == null
        || access.getClass() != caller) {
      throw new IllegalCallerException("only " + IMPLEMENTATION + " installs the API access, not " + caller.getName());
    }
    if (installed != null) {
      throw new IllegalStateException("the API access is installed already");
    }
    installed = access;
  }

  /**
   * The implementation the API package installed, initializing it on first use; for the SPI package's classes only.
   *
   * @throws IllegalCallerException if the caller is not a class of {@code dev.sessionstore.spi} loaded with this one
   */
  public static ApiAccess get() {
    Class<?> caller = WALKER.getCallerClass();
    if (!isLibraryClass(caller) || !caller.getPackageName().equals(SPI_PACKAGE)) {
      throw new IllegalCallerException("the API access is for " + SPI_PACKAGE + " only, not " + caller.getName());
    }
    try {
      Class.forName(IMPLEMENTATION, true, ApiAccess.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("session-store-api is incomplete: " + IMPLEMENTATION + " is missing", e);
    }
    synchronized (ApiAccess.class) {
      return installed;
    }
  }

  private static boolean isLibraryClass(Class<?> caller) {
    return caller.getClassLoader() == ApiAccess.class.getClassLoader();
  }

  /** The document a store wrote from a {@link Json} and read back unchanged, not checked again. */
  public abstract Json storedJson(String text);

  /** A required key; see {@code dev.sessionstore.spi.Arguments#requireKey}. */
  public abstract String requireKey(String field, String value);

  /** An optional key; see {@code dev.sessionstore.spi.Arguments#optionalKey}. */
  public abstract String optionalKey(String field, String value);

  /** Storable free text; see {@code dev.sessionstore.spi.Arguments#requireText}. */
  public abstract String requireText(String field, String value, int maxLength);

  /** A non-null reference, else an {@link InvalidArgumentException} naming {@code field}. */
  public abstract <T> T requireNonNull(String field, T value);

  /** A number {@code >= 0}, else an {@link InvalidArgumentException} naming {@code field}. */
  public abstract long requireNonNegative(String field, long value);

  /** A number {@code >= 1}, else an {@link InvalidArgumentException} naming {@code field}. */
  public abstract long requirePositive(String field, long value);

  /** A required instant truncated to microseconds. */
  public abstract Instant requireInstant(String field, Instant value);

  /** An optional instant truncated to microseconds. */
  public abstract Instant optionalInstant(String field, Instant value);

  /** An unmodifiable copy of a bounded list of non-null elements. */
  public abstract <T> List<T> requireElements(String field, List<T> values, int maxSize);

  /** An unmodifiable copy of a valid metadata patch. */
  public abstract Map<String, String> requireMetadataPatch(String field, Map<String, String> patch);

  /** A status a caller may resolve a tool call to. */
  public abstract ToolCallStatus requireResolvedStatus(String field, ToolCallStatus status);

  /** Checkpoint bytes within the size limit, not copied. */
  public abstract byte[] requireCheckpointData(String field, byte[] data);

  /** A batch's distinct events by id, in first-occurrence order, identical duplicates collapsed. */
  public abstract Map<String, NewEvent> distinctEvents(String sessionId, List<NewEvent> events);

  /** Code point order of two ids. */
  public abstract int compareIds(String a, String b);

  /**
   * The string values of {@code document}, at any depth, in document order (object keys are no values), read by
   * streaming its text: no tree is built.
   */
  public abstract List<String> stringValues(Json document);

  /**
   * The distinct word forms of {@code document}'s string values, in code point order, joined by single spaces: made
   * once per document, with its validation where it was validated.
   */
  public abstract String indexText(Json document);

  /** Whether a session with these settings is resumed eagerly. */
  public abstract boolean resumesEagerly(Json settings);
}
