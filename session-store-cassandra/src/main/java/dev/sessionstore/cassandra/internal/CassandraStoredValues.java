package dev.sessionstore.cassandra.internal;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.uuid.Uuids;
import dev.sessionstore.OutcomeUnknownException;
import dev.sessionstore.spi.Arguments;
import dev.sessionstore.spi.RetryCause;
import dev.sessionstore.spi.SettledOutcome;
import dev.sessionstore.spi.StoreEventHub;
import dev.sessionstore.spi.StoredJson;
import dev.sessionstore.spi.StoredValue;
import dev.sessionstore.spi.StoredValueCursor;
import dev.sessionstore.spi.StoredValueKind;
import dev.sessionstore.spi.StoredValuePage;
import dev.sessionstore.spi.StoredValueRef;
import dev.sessionstore.spi.StoredValues;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stored values of a Cassandra store ({@link StoredValues}): what a re-encryption pass walks and rewrites.
 *
 * <p><b>Scan.</b> Kind by kind ({@link StoredValuePage#byKind}), each kind a walk of its table in token order: the rows
 * of one row kind of {@code session_data} (events {@code e}, tool calls {@code t}, summaries {@code s}, checkpoints
 * {@code c}, audit rows {@code m}), or the partitions of {@code global_checkpoints}; so sessions come in token order,
 * keys in clustering order. A page is a read of the table from a token on, restricted to the row kind (a clustering
 * slice of each partition) and filtered to the namespace by the server ({@code ALLOW FILTERING}: partitions of other
 * namespaces are skipped on their key, not returned). The cursor ({@link StoredValueCursor}) names the last value
 * returned, so a page resumes with up to three reads: the rest of that value's partition, the partitions sharing its
 * partition's token that come after it (in the server's order; a 64-bit token collision, so in practice none), and
 * the table after that token. Nothing is held between pages; each read is paged by the driver (at most 100 documents
 * or one checkpoint per request, never more than the page asks for), so memory is bounded by the page. A page costs
 * one request per kind it reaches (three when it resumes inside a kind) plus one per 100 documents or per checkpoint
 * returned (measured in {@code CassandraStoredValuesTest}: 15 values in 4 pages of 4, 21 requests); a whole
 * pass costs one walk of each table per kind, at the read consistency, and the walk also reads the keys (not the
 * rows) of other namespaces' partitions. A fork owns copies of what it took from its parent, so their values are rows
 * of the fork and are scanned (and rewritten) under it. A value of a partition written or removed during the walk may
 * or may not appear; every value stored throughout appears exactly once (once at least if its partition shares its
 * token with one removed mid-scan).
 *
 * <p><b>Rewrite.</b> One lightweight transaction on the value's own row, {@code UPDATE ... IF <column> = <expected>},
 * which for a session's value also sets a new {@code head}: the compare is linearized with every other write of the
 * session by Paxos (all of them are conditional batches on that partition), and the new head makes a step that read
 * the partition before the rewrite fail its condition, re-read and carry the rewritten value, instead of writing back
 * the value it had read (a step rewrites whole rows: a tool call's resolution writes its arguments again). Conditioning
 * on the head instead would cost a read first and fail whenever anything else was written to the session since;
 * conditioning on the value alone lets such a step undo the rewrite. A global checkpoint is one partition written only
 * by lightweight transactions, none of which writes back a value it read, so its rewrite is {@code IF data = ?} alone.
 * An event payload's rewrite also sets the row's {@code search_terms} from the new payload ({@link SearchEntries}), in
 * the same transaction, so search finds the event by what it now holds. A rewrite of a value whose row is gone, or
 * of an unknown session, applies to nothing and creates nothing. It runs in
 * the session's in-process queue, so this instance's own steps do not race it; other processes' steps lose one round
 * to it and retry. A rewrite whose outcome is unknown (a timeout, a lost connection) is settled by reading the value
 * at the serial consistency: the replacement means applied, the expected value means not applied (written again),
 * anything else means a writer changed it (not applied); past the retry timeout it is an
 * {@link OutcomeUnknownException}. Cost: one Paxos round per value (several round trips to a quorum), no read.
 */
final class CassandraStoredValues implements StoredValues {

  private static final Logger LOG = LoggerFactory.getLogger(CassandraStoredValues.class);

  /** Documents fetched per request: a page of the driver. */
  private static final int DOCUMENTS_PER_REQUEST = 100;

  /** Checkpoints fetched per request: one may be as large as a mutation. */
  private static final int BLOBS_PER_REQUEST = 1;

  /**
   * The statements of one kind: {@code first} (the table from its first token), {@code after} (after a partition's
   * token), {@code sameToken} (the partition keys at a partition's token), {@code partition} (one partition's values),
   * {@code rest} (one partition's values after a key; null for a table without clustering), {@code one} (one value,
   * for settling a rewrite), {@code rewrite} (the compare-and-set).
   */
  private record Source(boolean global, PreparedStatement first, PreparedStatement after,
      PreparedStatement sameToken, PreparedStatement partition, PreparedStatement rest, PreparedStatement one,
      PreparedStatement rewrite) {
  }

  private final Cql cql;
  private final SessionQueue queue;
  private final StoreEventHub events;
  private final String ns;
  private final Map<StoredValueKind, Source> sources = new EnumMap<>(StoredValueKind.class);

  CassandraStoredValues(Cql cql, SessionQueue queue, StoreEventHub events) {
    this.cql = cql;
    this.queue = queue;
    this.events = events;
    this.ns = cql.settings.namespace();
    CqlSession session = cql.settings.session();
    String data = cql.settings.keyspace() + ".session_data";
    sources.put(StoredValueKind.EVENT_PAYLOAD, sessionSource(session, data, "e", "payload", ", search_terms = ?"));
    sources.put(StoredValueKind.TOOL_CALL_ARGUMENTS, sessionSource(session, data, "t", "payload", ""));
    sources.put(StoredValueKind.TOOL_CALL_RESULT, sessionSource(session, data, "t", "result", ""));
    sources.put(StoredValueKind.SUMMARY_CONTENT, sessionSource(session, data, "s", "payload", ""));
    sources.put(StoredValueKind.CHECKPOINT_DATA, sessionSource(session, data, "c", "data", ""));
    sources.put(StoredValueKind.MODEL_CALL_CONTEXT, sessionSource(session, data, "m", "payload", ""));
    sources.put(StoredValueKind.MODEL_CALL_USAGE, sessionSource(session, data, "m", "usage", ""));
    String globals = cql.settings.keyspace() + ".global_checkpoints";
    String select = "SELECT name, data FROM " + globals;
    sources.put(StoredValueKind.GLOBAL_CHECKPOINT_DATA, new Source(true,
        session.prepare(select + " WHERE ns = ? ALLOW FILTERING"),
        session.prepare(select + " WHERE token(ns, name) > token(?, ?) AND ns = ? ALLOW FILTERING"),
        session.prepare("SELECT DISTINCT ns, name FROM " + globals + " WHERE token(ns, name) = token(?, ?)"),
        session.prepare(select + " WHERE ns = ? AND name = ?"), null,
        session.prepare("SELECT data FROM " + globals + " WHERE ns = ? AND name = ?"),
        session.prepare("UPDATE " + globals + " SET data = ? WHERE ns = ? AND name = ? IF data = ?")));
  }

  /**
   * The statements of the values in {@code column} of the rows of kind {@code rowKind} of {@code session_data}; the
   * rewrite also sets {@code alsoSet} (an event payload's {@code search_terms}, so the index follows the payload).
   */
  private static Source sessionSource(CqlSession session, String data, String rowKind, String column,
      String alsoSet) {
    String select = "SELECT session_id, key, " + column + " FROM " + data;
    String ofKind = " AND kind = '" + rowKind + "'";
    String partition = " WHERE ns = ? AND session_id = ?" + ofKind;
    return new Source(false,
        session.prepare(select + " WHERE ns = ?" + ofKind + " ALLOW FILTERING"),
        session.prepare(select + " WHERE token(ns, session_id) > token(?, ?) AND ns = ?" + ofKind
            + " ALLOW FILTERING"),
        session.prepare("SELECT DISTINCT ns, session_id FROM " + data
            + " WHERE token(ns, session_id) = token(?, ?)"),
        session.prepare(select + partition),
        session.prepare(select + partition + " AND key > ?"),
        session.prepare("SELECT " + column + " FROM " + data + partition + " AND key = ?"),
        session.prepare("UPDATE " + data + " SET head = ?, " + column + " = ?" + alsoSet + partition
            + " AND key = ? IF " + column + " = ?"));
  }

  @Override
  public StoredValuePage scan(Optional<String> cursor, int limit) {
    Optional<StoredValueRef> after = StoredValueCursor.parse(cursor);
    Arguments.requirePositive("limit", limit);
    return Reads.run(() -> StoredValuePage.byKind(after, limit, this::read));
  }

  /** At most {@code max} values of {@code kind} after {@code after} (or from the first), in token order. */
  private List<StoredValue> read(StoredValueKind kind, Optional<StoredValueRef> after, int max) {
    Source source = sources.get(kind);
    List<StoredValue> found = new ArrayList<>();
    if (after.isEmpty()) {
      add(found, kind, source.first().bind(ns), max);
      return found;
    }
    String owner = owner(after.get());
    if (source.rest() != null) {
      add(found, kind, source.rest().bind(ns, owner, clusteringKey(after.get())), max);
    }
    if (found.size() < max) {
      List<String> atToken = new ArrayList<>();
      for (Row row : cql.read(source.sameToken().bind(ns, owner))) {
        if (ns.equals(row.getString(0))) {
          atToken.add(row.getString(1));
        }
      }
      // the partitions after the cursor's at its token, in the server's order; all of them if it is gone
      for (String next : atToken.subList(atToken.indexOf(owner) + 1, atToken.size())) {
        if (found.size() < max) {
          add(found, kind, source.partition().bind(ns, next), max);
        }
      }
    }
    if (found.size() < max) {
      add(found, kind, source.after().bind(ns, owner, ns), max);
    }
    return found;
  }

  /** Adds the values {@code statement} reads, up to {@code max} in all, fetching no page past the last one used. */
  private void add(List<StoredValue> found, StoredValueKind kind, BoundStatement statement, int max) {
    int perRequest = Math.min(max, kind.blob() ? BLOBS_PER_REQUEST : DOCUMENTS_PER_REQUEST);
    for (Row row : cql.read(statement.setPageSize(perRequest))) {
      StoredValue value = value(kind, row);
      if (value != null) {
        found.add(value);
      }
      if (found.size() >= max) {
        return;
      }
    }
  }

  /** The value in a row of (owner, key, value), or (name, data) for a global checkpoint; null where there is none. */
  private static StoredValue value(StoredValueKind kind, Row row) {
    boolean global = kind == StoredValueKind.GLOBAL_CHECKPOINT_DATA;
    int column = global ? 1 : 2;
    if (row.isNull(column)) {
      return null;
    }
    String key = global ? row.getString(0) : row.getString(1);
    StoredValueRef ref = new StoredValueRef(kind, global ? null : row.getString(0),
        kind.numericKey() ? Long.toString(Long.parseLong(key)) : key);
    return kind.blob() ? StoredValue.of(ref, bytes(row.getByteBuffer(column)))
        : StoredValue.of(ref, StoredJson.of(row.getString(column)));
  }

  @Override
  public boolean rewrite(StoredValue expected, StoredValue replacement) {
    StoredValueCursor.checkRewrite(expected, replacement);
    StoredValueRef ref = expected.ref();
    Source source = sources.get(ref.kind());
    if (source.global()) {
      return compareAndSet(source, expected, replacement, () -> source.rewrite().bind(stored(replacement), ns,
          ref.key(), stored(expected)));
    }
    return queue.run(ref.sessionId(), () -> compareAndSet(source, expected, replacement,
        () -> ref.kind() == StoredValueKind.EVENT_PAYLOAD
            ? source.rewrite().bind(Uuids.timeBased(), stored(replacement), SearchEntries.of(replacement.document()),
                ns, ref.sessionId(), clusteringKey(ref), stored(expected))
            : source.rewrite().bind(Uuids.timeBased(), stored(replacement), ns, ref.sessionId(), clusteringKey(ref),
                stored(expected))));
  }

  /**
   * Runs the compare-and-set {@code cas} makes (a fresh one per attempt: each sets a new head), settling an unknown
   * outcome with serial reads of the value until the retry timeout.
   */
  private boolean compareAndSet(Source source, StoredValue expected, StoredValue replacement,
      Supplier<BoundStatement> cas) {
    StoredValueRef ref = expected.ref();
    long deadline = System.nanoTime() + cql.settings.retryTimeout().toNanos();
    RuntimeException unknown = null;
    for (int round = 0; ; round++) {
      try {
        if (unknown != null) {
          Object stored = storedNow(source, ref);
          if (Objects.equals(stored, stored(replacement))) {
            events.outcomeSettled(SettledOutcome.APPLIED);
            return true;
          }
          if (!Objects.equals(stored, stored(expected))) {
            events.outcomeSettled(SettledOutcome.NOT_APPLIED);
            return false;
          }
        }
        boolean applied = cql.write(cas.get()).wasApplied();
        if (unknown != null) {
          events.outcomeSettled(SettledOutcome.NOT_APPLIED);
        }
        return applied;
      } catch (RuntimeException e) {
        if (!DriverFailures.isDriverFailure(e)) {
          throw e;
        }
        if (unknown == null && !DriverFailures.outcomeUnknown(e)) {
          throw DriverFailures.failed("rewriting the stored value " + ref, e);
        }
        if (unknown != null) {
          events.retried(RetryCause.CONNECTION);
        } else {
          LOG.debug("outcome of the rewrite of {} unknown, settling it", ref, e);
          unknown = e;
        }
      }
      if (System.nanoTime() - deadline > 0) {
        throw new OutcomeUnknownException("the outcome of the rewrite of the stored value " + ref + " is unknown and "
            + "could not be settled in time; scanning and rewriting it again is safe", unknown);
      }
      StepWriter.pause(round);
    }
  }

  /** The value at {@code ref} as a serial read sees it (finishing any rewrite in flight), as bound; null if none. */
  private Object storedNow(Source source, StoredValueRef ref) {
    BoundStatement read = source.global() ? source.one().bind(ns, ref.key())
        : source.one().bind(ns, ref.sessionId(), clusteringKey(ref));
    Row row = cql.readSerial(read).one();
    if (row == null || row.isNull(0)) {
      return null;
    }
    return ref.kind().blob() ? row.getByteBuffer(0) : row.getString(0);
  }

  /** The value as the store binds it: a document's text or a blob's bytes. */
  private static Object stored(StoredValue value) {
    return value.ref().kind().blob() ? ByteBuffer.wrap(value.blob()) : value.document().text();
  }

  /** The clustering key of the row holding the session value at {@code ref}: a seq or turn zero-padded, or an id. */
  private static String clusteringKey(StoredValueRef ref) {
    return ref.kind().numericKey() ? Rows.eventKey(ref.numericKey()) : ref.key();
  }

  /** The partition the value at {@code ref} is in, after the namespace: its session, or a global checkpoint's name. */
  private static String owner(StoredValueRef ref) {
    return ref.kind() == StoredValueKind.GLOBAL_CHECKPOINT_DATA ? ref.key() : ref.sessionId();
  }

  private static byte[] bytes(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }
}
