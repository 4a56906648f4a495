package dev.sessionstore.spi;

/**
 * The payload-bearing values a store holds, each a member of one record kind: what {@link StoredValues} scans and
 * rewrites. Ids, seqs, names, statuses and timestamps are not values in this sense; they never change.
 */
public enum StoredValueKind {
  /** An event's payload; key: the event's seq. */
  EVENT_PAYLOAD(true, false),
  /** A tool call's arguments; key: the call's id. */
  TOOL_CALL_ARGUMENTS(false, false),
  /** A tool call's result, when it has one; key: the call's id. */
  TOOL_CALL_RESULT(false, false),
  /** A summary's content; key: its {@code toSeq}. */
  SUMMARY_CONTENT(true, false),
  /** A session-scoped checkpoint's data; key: its name. */
  CHECKPOINT_DATA(false, true),
  /** A global checkpoint's data (no session); key: its name. */
  GLOBAL_CHECKPOINT_DATA(false, true),
  /** A model-call audit row's context; key: its turn. */
  MODEL_CALL_CONTEXT(true, false),
  /** A model-call audit row's usage, when it has one; key: its turn. */
  MODEL_CALL_USAGE(true, false);

  private final boolean numericKey;
  private final boolean blob;

  StoredValueKind(boolean numericKey, boolean blob) {
    this.numericKey = numericKey;
    this.blob = blob;
  }

  /** Whether the key is a number (a seq or a turn) in decimal, ordered as a number; else an id ordered as text. */
  public boolean numericKey() {
    return numericKey;
  }

  /** Whether the value is a byte blob ({@link StoredValue#blob()}); else a JSON document. */
  public boolean blob() {
    return blob;
  }
}
