package dev.sessionstore;

/**
 * The documented bounds every store enforces, identical across adapters so that data accepted by one adapter is
 * accepted by all. Values past a bound are rejected with {@link InvalidArgumentException} before anything is written.
 */
public final class Limits {

  /** Longest id (session, event, run, tool call, checkpoint name), name, tenant, type or status, in chars. */
  public static final int MAX_KEY_LENGTH = 256;

  /** Longest metadata value, in chars. */
  public static final int MAX_METADATA_VALUE_LENGTH = 4096;

  /** Most metadata entries on one session. */
  public static final int MAX_METADATA_ENTRIES = 256;

  /** Longest JSON document text, in chars (4 MiB): a longer {@link Json} text is rejected before it is parsed. */
  public static final int MAX_JSON_LENGTH = 4 * 1024 * 1024;

  /**
   * Deepest nesting of arrays and objects in a JSON document: {@code [[1]]} is nested 2 deep. A deeper document is
   * rejected by the parser as it reaches the bound, whatever its length, never with a stack overflow.
   */
  public static final int MAX_JSON_DEPTH = 64;

  /**
   * Longest number in a JSON document, as Jackson's {@code StreamReadConstraints.getMaxNumberLength()} counts it:
   * its digits and exponent, not its decimal point or a lone leading {@code 0} (a 1000-digit integer and
   * {@code 0.} followed by 1000 digits are accepted; one digit more is rejected). A number's exponent must also fit
   * a {@link java.math.BigDecimal} scale (an {@code int}): {@code 1e999999999} is accepted, {@code 1e9999999999} is
   * rejected.
   */
  public static final int MAX_JSON_NUMBER_LENGTH = 1000;

  /** Largest checkpoint blob, in bytes (16 MiB). */
  public static final int MAX_CHECKPOINT_BYTES = 16 * 1024 * 1024;

  /** Most events in one batch append or step. */
  public static final int MAX_BATCH_SIZE = 10_000;

  /** Most terms in one {@link SearchQuery}. */
  public static final int MAX_SEARCH_TERMS = 16;

  /** Longest text read by {@link SearchQuery#of(String)}, in chars. */
  public static final int MAX_SEARCH_TEXT_LENGTH = 1000;

  /** Most hits on one {@link SearchPage}. */
  public static final int MAX_SEARCH_LIMIT = 100;

  /** Longest word form {@link SearchWords} keeps, in chars: a longer word is searched by its first this many. */
  public static final int MAX_SEARCH_WORD_LENGTH = 64;

  private Limits() {
  }
}
