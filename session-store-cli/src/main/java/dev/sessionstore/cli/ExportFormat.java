package dev.sessionstore.cli;

import dev.sessionstore.SessionArchive;

/**
 * The export file format, version {@value #VERSION}: JSON Lines (UTF-8, one JSON object per line), each line's
 * {@code "kind"} saying what it holds.
 *
 * <pre>
 * {"kind":"header","format":"session-store-export","version":1}
 * {"kind":"session", ...the session..., "cutSeq":8}             one block per session; cutSeq only when
 *                                                                retention cut the log's head through that seq
 * {"kind":"event", ...}  {"kind":"run", ...}  {"kind":"toolCall", ...}
 * {"kind":"summary", ...}  {"kind":"checkpoint", ...}  {"kind":"modelCall", ...}
 * {"kind":"end","sessionId":"...","records":12}                  closes the block; records = lines in it
 * {"kind":"globalCheckpoint", ...}                               checkpoints of no session, after the sessions
 * {"kind":"trailer","sessions":2,"globalCheckpoints":0}          the last line
 * </pre>
 *
 * The fields of each record are those of {@link Records}. A block must be closed by its {@code end} line and the file
 * by its trailer, so that a cut-off file is told from a complete one.
 */
final class ExportFormat {

  static final String FORMAT = "session-store-export";
  static final int VERSION = 1;

  static final String KIND = "kind";
  static final String HEADER = "header";
  static final String SESSION = "session";
  /** The session line's field naming the seq through which the log's head was cut; absent when it never was. */
  static final String CUT_SEQ = "cutSeq";
  static final String EVENT = "event";
  static final String RUN = "run";
  static final String TOOL_CALL = "toolCall";
  static final String SUMMARY = "summary";
  static final String CHECKPOINT = "checkpoint";
  static final String MODEL_CALL = "modelCall";
  static final String END = "end";
  static final String GLOBAL_CHECKPOINT = "globalCheckpoint";
  static final String TRAILER = "trailer";

  private ExportFormat() {
  }

  /** The records of {@code archive}'s block: the lines between its session line and its end line. */
  static int records(SessionArchive archive) {
    return archive.events().size() + archive.runs().size() + archive.toolCalls().size()
        + archive.summaries().size() + archive.checkpoints().size() + archive.modelCalls().size();
  }
}
