package dev.sessionstore.cassandra.internal;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Event;
import dev.sessionstore.ForkOrigin;
import dev.sessionstore.ModelCall;
import dev.sessionstore.Run;
import dev.sessionstore.RunStatus;
import dev.sessionstore.Session;
import dev.sessionstore.SessionStatus;
import dev.sessionstore.Summary;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.spi.StoredJson;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Rows of the store's tables as records, and the keys rows are stored under. */
final class Rows {

  /**
   * The kinds of rows a session's partition holds: events, event ids, runs, checkpoints, summaries, tool calls and
   * model-call audit rows.
   */
  static final List<String> KINDS = List.of("e", "i", "r", "c", "s", "t", "m");

  private Rows() {
  }

  /** The clustering key of the event at {@code seq}: zero-padded so that text order is seq order. */
  static String eventKey(long seq) {
    return String.format("%019d", seq);
  }

  /**
   * The header of a session's partition: its head (null when the partition is empty), its session, and the seq
   * through which retention cut its log ({@code cutSeq}, 0 when never cut): the log holds {@code cutSeq + 1} to
   * {@code lastSeq}, and every read of it starts after {@code cutSeq}, never among the cut rows' tombstones.
   */
  record Header(UUID head, long lastSeq, Session session, long fenceToken, String fenceOwner, long cutSeq) {

    /** The header of a partition that holds nothing. */
    static final Header EMPTY = new Header(null, 0, null, 0, null, 0);

    boolean exists() {
      return session != null;
    }

    /** {@code seq}, or the cut seq when the cut passed it: the exclusive lower bound of a read of the live log. */
    long liveAfter(long seq) {
      return Math.max(seq, cutSeq);
    }
  }

  /** The header in a row of {@link Cql#SESSION_COLUMNS}, starting at column {@code from}. */
  static Header header(Row row, int from) {
    if (row == null) {
      return Header.EMPTY;
    }
    UUID head = row.getUuid(from + 1);
    long lastSeq = row.isNull(from + 2) ? 0 : row.getLong(from + 2);
    return new Header(head, lastSeq, row.isNull(from + 11) ? null : session(row, from, lastSeq),
        row.isNull(from + 13) ? 0 : row.getLong(from + 13), row.getString(from + 14),
        row.isNull(from + 15) ? 0 : row.getLong(from + 15));
  }

  private static Session session(Row row, int from, long lastSeq) {
    String forkParent = row.getString(from + 9);
    return new Session(row.getString(from), row.getString(from + 3), row.getString(from + 4),
        row.getString(from + 5), SessionStatus.of(row.getString(from + 6)), StoredJson.of(row.getString(from + 7)),
        metadata(row.getMap(from + 8, String.class, String.class)),
        forkParent == null ? null : new ForkOrigin(forkParent, row.getLong(from + 10)),
        Micros.instant(row.getLong(from + 11)), Micros.instant(row.getLong(from + 12)),
        row.isNull(from + 16) ? null : Micros.instant(row.getLong(from + 16)), lastSeq);
  }

  /** The event in a row of {@link Cql#EVENT_COLUMNS}. */
  static Event event(String sessionId, Row row) {
    return new Event(sessionId, row.getLong(0), row.getString(1), row.getString(2), row.getString(3), row.getString(4),
        row.getString(5), StoredJson.of(row.getString(6)), Micros.instant(row.getLong(7)));
  }

  /** The run in a row of {@link Cql#RUN_COLUMNS}. */
  static Run run(String sessionId, Row row) {
    String error = row.getString(3);
    return new Run(row.getString(0), sessionId, RunStatus.valueOf(row.getString(1)),
        StoredJson.of(row.getString(2)), error == null ? null : StoredJson.of(error),
        Micros.instant(row.getLong(4)), Micros.instant(row.getLong(5)));
  }

  /** The tool call in a row of {@link Cql#TOOL_CALL_COLUMNS}. */
  static ToolCall toolCall(String sessionId, Row row) {
    String result = row.getString(6);
    return new ToolCall(row.getString(0), sessionId, row.getString(1), row.getString(2), row.getString(3),
        StoredJson.of(row.getString(4)), ToolCallStatus.valueOf(row.getString(5)),
        result == null ? null : StoredJson.of(result), row.isNull(7) ? null : Micros.instant(row.getLong(7)),
        Micros.instant(row.getLong(8)), Micros.instant(row.getLong(9)));
  }

  /** The model-call audit row in a row of (turn, model, context, usage, recorded). */
  static ModelCall modelCall(String sessionId, Row row) {
    return new ModelCall(sessionId, row.getLong(0), row.getString(1), StoredJson.of(row.getString(2)),
        StoredJson.of(row.getString(3)), Micros.instant(row.getLong(4)));
  }

  /** The summary in a row of {@link Cql#SUMMARY_COLUMNS}. */
  static Summary summary(String sessionId, Row row) {
    return new Summary(sessionId, row.getLong(1), row.getLong(0), StoredJson.of(row.getString(2)), row.getInt(3),
        Micros.instant(row.getLong(4)));
  }

  /** The checkpoint under {@code key} in a row of (name, data, updated). */
  static Checkpoint checkpoint(CheckpointKey key, Row row) {
    ByteBuffer data = row.getByteBuffer(1);
    byte[] bytes = new byte[data == null ? 0 : data.remaining()];
    if (data != null) {
      data.duplicate().get(bytes);
    }
    return new Checkpoint(key, bytes, Micros.instant(row.getLong(2)));
  }

  /** When the run in a row of {@link Cql#RUN_COLUMNS} was saved, in the order of the session's writes. */
  static long savedOrder(Row row) {
    return row.getUuid(6).timestamp();
  }

  /** An empty map for a null metadata column. */
  private static Map<String, String> metadata(Map<String, String> stored) {
    return stored == null ? Map.of() : stored;
  }
}
