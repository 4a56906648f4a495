package dev.sessionstore.benchmarks.sidebyside;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.uuid.Uuids;
import dev.sessionstore.NewEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * The raw-CQL twin of the Cassandra adapter's event log: the same conditional batch written by hand with the driver,
 * on the library's own {@code session_data} table (in a namespace of its own), at the library's consistency levels
 * (reads and writes at {@code QUORUM}, conditions at {@code SERIAL}). An append reads the partition's {@code head} and
 * {@code last_seq}, then commits one logged batch on the partition: the head moved {@code IF head = <read>}, the
 * event rows and their id rows. A lost race re-reads and retries with the library's jittered pauses. Seqs are gapless
 * and a batch is atomic, like the library's; no idempotent replay (the id rows are written, never read), no session
 * record, no payload validation, no group commit (every call is its own Paxos round), no unknown outcome settled.
 */
final class RawCql {

  private static final String EVENT_COLUMNS = "seq, event_id, type, payload, ts";

  private final CqlSession session;
  private final String ns;
  private final PreparedStatement header;
  private final PreparedStatement moveHead;
  private final PreparedStatement insertEvent;
  private final PreparedStatement insertId;
  private final PreparedStatement tail;
  private final PreparedStatement latestSummary;
  private final PreparedStatement eventsAfter;

  RawCql(CqlSession session, String keyspace, String namespace) {
    this.session = session;
    this.ns = namespace;
    String data = keyspace + ".session_data";
    String partition = " WHERE ns = ? AND session_id = ?";
    header = session.prepare("SELECT head, last_seq FROM " + data + partition + " LIMIT 1");
    moveHead = session.prepare("UPDATE " + data + " SET head = ?, last_seq = ?" + partition + " IF head = ?");
    insertEvent = session.prepare("INSERT INTO " + data + " (ns, session_id, kind, key, " + EVENT_COLUMNS + ")"
        + " VALUES (?, ?, 'e', ?, ?, ?, ?, ?, ?)");
    insertId = session.prepare("INSERT INTO " + data + " (ns, session_id, kind, key, seq) VALUES (?, ?, 'i', ?, ?)");
    tail = session.prepare("SELECT " + EVENT_COLUMNS + " FROM " + data + partition
        + " AND kind = 'e' ORDER BY kind DESC, key DESC LIMIT ?");
    latestSummary = session.prepare("SELECT seq, payload FROM " + data + partition
        + " AND kind = 's' ORDER BY kind DESC, key DESC LIMIT 1");
    eventsAfter = session.prepare("SELECT " + EVENT_COLUMNS + " FROM " + data + partition
        + " AND kind = 'e' AND key > ?");
  }

  /** Appends {@code events} as one conditional batch at the session's next seqs; returns the first seq. */
  long append(String sessionId, List<NewEvent> events) {
    for (int round = 0; ; round++) {
      Row head = read(header.bind(ns, sessionId)).one();
      UUID current = head == null ? null : head.getUuid(0);
      long last = head == null || head.isNull(1) ? 0 : head.getLong(1);
      long micros = System.currentTimeMillis() * 1_000;
      BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.LOGGED);
      batch.addStatement(moveHead.bind(Uuids.timeBased(), last + events.size(), ns, sessionId, current));
      long seq = last;
      for (NewEvent event : events) {
        seq++;
        batch.addStatement(insertEvent.bind(ns, sessionId, key(seq), seq, event.id(), event.type(),
            event.payload().text(), micros));
        batch.addStatement(insertId.bind(ns, sessionId, event.id(), seq));
      }
      if (session.execute(batch.build().setConsistencyLevel(DefaultConsistencyLevel.QUORUM)
          .setSerialConsistencyLevel(DefaultConsistencyLevel.SERIAL)).wasApplied()) {
        return last + 1;
      }
      long maxMicros = Math.min(50_000, 500L << Math.min(round, 7));
      LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(maxMicros / 2, maxMicros + 1) * 1_000);
    }
  }

  /** The session's {@code last_seq}, 0 if unknown. */
  long lastSeq(String sessionId) {
    Row head = read(header.bind(ns, sessionId)).one();
    return head == null || head.isNull(1) ? 0 : head.getLong(1);
  }

  /** The last {@code n} events of the session, oldest first: one statement, newest first, reversed. */
  List<RawEvent> tail(String sessionId, int n) {
    List<RawEvent> events = events(read(tail.bind(ns, sessionId, n)));
    Collections.reverse(events);
    return events;
  }

  /**
   * The session's latest summary (its payload as the row of seq 0) and the events after it, oldest first: two
   * statements, with no check that no write came between them.
   */
  List<RawEvent> revive(String sessionId) {
    Row summary = read(latestSummary.bind(ns, sessionId)).one();
    long after = summary == null ? 0 : summary.getLong(0);
    List<RawEvent> revival = new ArrayList<>();
    if (summary != null) {
      revival.add(new RawEvent(0, "summary", "summary", summary.getString(1), 0));
    }
    revival.addAll(events(read(eventsAfter.bind(ns, sessionId, key(after)))));
    return revival;
  }

  private com.datastax.oss.driver.api.core.cql.ResultSet read(BoundStatement statement) {
    return session.execute(statement.setConsistencyLevel(DefaultConsistencyLevel.QUORUM));
  }

  private static List<RawEvent> events(Iterable<Row> rows) {
    List<RawEvent> events = new ArrayList<>();
    for (Row row : rows) {
      events.add(new RawEvent(row.getLong(0), row.getString(1), row.getString(2), row.getString(3), row.getLong(4)));
    }
    return events;
  }

  /** The clustering key of seq {@code seq}, as the library writes it: zero-padded to 19 digits. */
  private static String key(long seq) {
    return String.format("%019d", seq);
  }

  /** An event row as the twin reads it: the payload is the stored text, not parsed. */
  record RawEvent(long seq, String id, String type, String payload, long tsMicros) {
  }
}
