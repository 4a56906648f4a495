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

  /** Longest JSON document text, in chars (4 MiB). */
  public static final int MAX_JSON_LENGTH = 4 * 1024 * 1024;

  /** Deepest nesting of arrays and objects in a JSON document. */
  public static final int MAX_JSON_DEPTH = 64;

  /** Largest checkpoint blob, in bytes (16 MiB). */
  public static final int MAX_CHECKPOINT_BYTES = 16 * 1024 * 1024;

  /** Most events in one batch append or step. */
  public static final int MAX_BATCH_SIZE = 10_000;

  private Limits() {
  }
}
