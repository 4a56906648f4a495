package dev.sessionstore.cassandra.internal;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Statement;

/**
 * The store's statements, prepared once per store, and how they run: reads at the read consistency, writes at the
 * write consistency with conditions at the serial one. Every statement names the namespace and session id first
 * (the partition key), so each touches one session's partition.
 */
final class Cql {

  /** The session columns (static) of {@code session_data}, in the order {@link Rows#session} reads them. */
  static final String SESSION_COLUMNS = "session_id, head, last_seq, s_name, s_tenant, s_agent, s_status, s_settings, "
      + "s_metadata, s_fork_parent, s_fork_seq, s_created, s_updated, fence_token, fence_owner, cut_seq, s_expires";

  /**
   * The event columns of an event row, in the order {@link Rows#event} reads them, then the partition's
   * {@code cut_seq} (static: the same in every row of a read), which checks where a page started
   * ({@link PartitionReader#page}).
   */
  static final String EVENT_COLUMNS = "seq, event_id, type, run_id, agent_id, parent_id, payload, ts, cut_seq";

  /** The summary columns of a summary row, in the order {@link Rows#summary} reads them. */
  static final String SUMMARY_COLUMNS = "seq, from_seq, payload, version, created";

  /** How many columns {@link #SUMMARY_COLUMNS} and {@link #EVENT_COLUMNS} name: where a column read with them goes. */
  static final int SUMMARY_WIDTH = SUMMARY_COLUMNS.split(",").length;
  static final int EVENT_WIDTH = EVENT_COLUMNS.split(",").length;

  /** The run columns of a run row, in the order {@link Rows#run} reads them. */
  static final String RUN_COLUMNS = "key, status, usage, error, created, updated, saved";

  /** The columns of a tool-call row, in the order {@link Rows#toolCall} reads them. */
  static final String TOOL_CALL_COLUMNS = "key, run_id, event_id, type, payload, status, result, deadline, created, "
      + "updated";

  final StoreSettings settings;
  private final CqlSession session;

  final PreparedStatement header;
  final PreparedStatement sessionsIn;
  final PreparedStatement idsIn;
  final PreparedStatement eventsIn;
  final PreparedStatement eventsAsc;
  /** {@link #eventsAsc} with the partition's {@code head} (static) after the event columns. */
  final PreparedStatement eventsAscWithHead;
  final PreparedStatement eventsDesc;
  final PreparedStatement runs;
  final PreparedStatement run;
  final PreparedStatement writeHeader;
  final PreparedStatement expiringBefore;
  final PreparedStatement claimFence;
  final PreparedStatement insertEvent;
  final PreparedStatement insertId;
  /** {@link #insertId} {@code IF NOT EXISTS}: in a batch, a condition that the event's id is new. */
  final PreparedStatement insertNewId;
  final PreparedStatement deleteEvent;
  final PreparedStatement eventIdsAsc;
  final PreparedStatement cutEvents;
  final PreparedStatement deleteId;
  final PreparedStatement insertRun;
  final PreparedStatement deleteKind;
  final PreparedStatement summaries;
  final PreparedStatement latestSummary;
  /** {@link #latestSummary} with the partition's header ({@link #SESSION_COLUMNS}, static) after the summary columns. */
  final PreparedStatement latestSummaryWithHeader;
  final PreparedStatement summary;
  final PreparedStatement summaryBefore;
  final PreparedStatement summariesFrom;
  final PreparedStatement insertSummary;
  final PreparedStatement deleteSummary;
  final PreparedStatement toolCall;
  final PreparedStatement toolCallsIn;
  final PreparedStatement toolCalls;
  final PreparedStatement insertToolCall;
  final PreparedStatement addDeadline;
  final PreparedStatement addDeadlineHour;
  final PreparedStatement deadlineHours;
  final PreparedStatement dueDeadlines;
  final PreparedStatement removeDeadline;
  final PreparedStatement removeDeadlineHour;
  final PreparedStatement modelCalls;
  final PreparedStatement insertModelCall;
  final PreparedStatement deleteModelCall;
  final PreparedStatement checkpoint;
  final PreparedStatement checkpointsIn;
  final PreparedStatement checkpoints;
  final PreparedStatement insertCheckpoint;
  final PreparedStatement deleteCheckpoint;
  final PreparedStatement globalCheckpoint;
  final PreparedStatement updateGlobalCheckpoint;
  final PreparedStatement insertGlobalCheckpoint;
  final PreparedStatement deleteGlobalCheckpoint;
  final PreparedStatement addGlobalName;
  final PreparedStatement globalNames;
  final PreparedStatement indexSession;
  final PreparedStatement unindexSession;
  final PreparedStatement indexBucket;
  final PreparedStatement nameOwner;
  final PreparedStatement claimName;
  final PreparedStatement takeOverName;
  final PreparedStatement releaseName;
  final PreparedStatement lastSweep;
  final PreparedStatement claimFirstSweep;
  final PreparedStatement claimSweep;

  Cql(StoreSettings settings) {
    this.settings = settings;
    this.session = settings.session();
    String data = settings.keyspace() + ".session_data";
    String partition = " WHERE ns = ? AND session_id = ?";
    header = prepare("SELECT " + SESSION_COLUMNS + " FROM " + data + partition + " LIMIT 1");
    // One row per session whose expiry is before the bound, from the expiry index; other namespaces' are filtered
    // out of what the index found, never read from the table's other rows.
    expiringBefore = prepare("SELECT session_id FROM " + data + " WHERE s_expires < ? AND ns = ?"
        + " PER PARTITION LIMIT 1 ALLOW FILTERING");
    sessionsIn = prepare("SELECT DISTINCT ns, " + SESSION_COLUMNS + " FROM " + data
        + " WHERE ns = ? AND session_id IN ?");
    idsIn = prepare("SELECT key, seq FROM " + data + partition + " AND kind = 'i' AND key IN ?");
    eventsIn = prepare("SELECT " + EVENT_COLUMNS + " FROM " + data + partition + " AND kind = 'e' AND key IN ?");
    eventsAsc = prepare("SELECT " + EVENT_COLUMNS + " FROM " + data + partition
        + " AND kind = 'e' AND key > ? AND key < ? ORDER BY kind ASC, key ASC");
    eventsAscWithHead = prepare("SELECT " + EVENT_COLUMNS + ", head FROM " + data + partition
        + " AND kind = 'e' AND key > ? AND key < ? ORDER BY kind ASC, key ASC");
    eventsDesc = prepare("SELECT " + EVENT_COLUMNS + " FROM " + data + partition
        + " AND kind = 'e' AND key > ? AND key < ? ORDER BY kind DESC, key DESC");
    runs = prepare("SELECT " + RUN_COLUMNS + " FROM " + data + partition + " AND kind = 'r'");
    run = prepare("SELECT " + RUN_COLUMNS + " FROM " + data + partition + " AND kind = 'r' AND key = ?");
    writeHeader = prepare("UPDATE " + data + " SET head = ?, last_seq = ?, cut_seq = ?, s_name = ?, s_tenant = ?, "
        + "s_agent = ?, s_status = ?, s_settings = ?, s_metadata = ?, s_fork_parent = ?, s_fork_seq = ?, "
        + "s_created = ?, s_updated = ?, s_expires = ?" + partition + " IF head = ?");
    claimFence = prepare("UPDATE " + data + " SET head = ?, fence_token = ?, fence_owner = ?" + partition
        + " IF head = ?");
    insertEvent = prepare("INSERT INTO " + data + " (ns, session_id, kind, key, seq, event_id, type, run_id, "
        + "agent_id, parent_id, payload, ts, search_terms) VALUES (?, ?, 'e', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    eventIdsAsc = prepare("SELECT seq, event_id FROM " + data + partition
        + " AND kind = 'e' AND key > ? AND key <= ? ORDER BY kind ASC, key ASC");
    cutEvents = prepare("DELETE FROM " + data + partition + " AND kind = 'e' AND key <= ?");
    insertId = prepare("INSERT INTO " + data + " (ns, session_id, kind, key, seq) VALUES (?, ?, 'i', ?, ?)");
    insertNewId = prepare("INSERT INTO " + data + " (ns, session_id, kind, key, seq) VALUES (?, ?, 'i', ?, ?)"
        + " IF NOT EXISTS");
    deleteEvent = prepare("DELETE FROM " + data + partition + " AND kind = 'e' AND key = ?");
    deleteId = prepare("DELETE FROM " + data + partition + " AND kind = 'i' AND key = ?");
    insertRun = prepare("INSERT INTO " + data + " (ns, session_id, kind, key, status, usage, error, created, "
        + "updated, saved) VALUES (?, ?, 'r', ?, ?, ?, ?, ?, ?, ?)");
    deleteKind = prepare("DELETE FROM " + data + partition + " AND kind = ?");
    String summaryRows = "SELECT " + SUMMARY_COLUMNS + " FROM " + data + partition + " AND kind = 's'";
    summaries = prepare(summaryRows);
    latestSummary = prepare(summaryRows + " ORDER BY kind DESC, key DESC LIMIT 1");
    latestSummaryWithHeader = prepare("SELECT " + SUMMARY_COLUMNS + ", " + SESSION_COLUMNS + " FROM " + data
        + partition + " AND kind = 's' ORDER BY kind DESC, key DESC LIMIT 1");
    summary = prepare(summaryRows + " AND key = ?");
    summaryBefore = prepare(summaryRows + " AND key < ? ORDER BY kind DESC, key DESC LIMIT 1");
    summariesFrom = prepare(summaryRows + " AND key >= ?");
    insertSummary = prepare("INSERT INTO " + data + " (ns, session_id, kind, key, seq, from_seq, payload, version, "
        + "created) VALUES (?, ?, 's', ?, ?, ?, ?, ?, ?)");
    deleteSummary = prepare("DELETE FROM " + data + partition + " AND kind = 's' AND key = ?");
    String callRows = "SELECT " + TOOL_CALL_COLUMNS + " FROM " + data + partition + " AND kind = 't'";
    toolCall = prepare(callRows + " AND key = ?");
    toolCallsIn = prepare(callRows + " AND key IN ?");
    toolCalls = prepare(callRows);
    insertToolCall = prepare("INSERT INTO " + data + " (ns, session_id, kind, key, run_id, event_id, type, payload, "
        + "status, result, deadline, created, updated) VALUES (?, ?, 't', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    modelCalls = prepare("SELECT seq, type, payload, usage, created FROM " + data + partition + " AND kind = 'm'");
    insertModelCall = prepare("INSERT INTO " + data + " (ns, session_id, kind, key, seq, type, payload, usage, "
        + "created) VALUES (?, ?, 'm', ?, ?, ?, ?, ?, ?)");
    deleteModelCall = prepare("DELETE FROM " + data + partition + " AND kind = 'm' AND key = ?");
    String deadlines = settings.keyspace() + ".deadlines";
    String hours = settings.keyspace() + ".deadline_hours";
    addDeadline = prepare("INSERT INTO " + deadlines + " (ns, hour, due, session_id, call_id) VALUES (?, ?, ?, ?, ?)");
    addDeadlineHour = prepare("INSERT INTO " + hours + " (ns, hour) VALUES (?, ?)");
    deadlineHours = prepare("SELECT hour FROM " + hours + " WHERE ns = ? AND hour <= ?");
    dueDeadlines = prepare("SELECT due, session_id, call_id FROM " + deadlines + " WHERE ns = ? AND hour = ? "
        + "AND due <= ?");
    removeDeadline = prepare("DELETE FROM " + deadlines + " WHERE ns = ? AND hour = ? AND due = ? AND session_id = ? "
        + "AND call_id = ?");
    removeDeadlineHour = prepare("DELETE FROM " + hours + " USING TIMESTAMP ? WHERE ns = ? AND hour = ?");
    checkpoint = prepare("SELECT key, data, updated FROM " + data + partition + " AND kind = 'c' AND key = ?");
    checkpoints = prepare("SELECT key, data, updated FROM " + data + partition + " AND kind = 'c'");
    checkpointsIn = prepare("SELECT key FROM " + data + partition + " AND kind = 'c' AND key IN ?");
    insertCheckpoint = prepare("INSERT INTO " + data + " (ns, session_id, kind, key, data, updated) "
        + "VALUES (?, ?, 'c', ?, ?, ?)");
    deleteCheckpoint = prepare("DELETE FROM " + data + partition + " AND kind = 'c' AND key = ?");
    String globals = settings.keyspace() + ".global_checkpoints";
    globalCheckpoint = prepare("SELECT name, data, updated FROM " + globals + " WHERE ns = ? AND name = ?");
    updateGlobalCheckpoint = prepare("UPDATE " + globals + " SET data = ?, updated = ? WHERE ns = ? AND name = ? "
        + "IF EXISTS");
    insertGlobalCheckpoint = prepare("INSERT INTO " + globals + " (ns, name, data, updated) VALUES (?, ?, ?, ?) "
        + "IF NOT EXISTS");
    deleteGlobalCheckpoint = prepare("DELETE FROM " + globals + " WHERE ns = ? AND name = ? IF EXISTS");
    String globalNamesTable = settings.keyspace() + ".global_checkpoint_names";
    addGlobalName = prepare("INSERT INTO " + globalNamesTable + " (ns, name) VALUES (?, ?)");
    globalNames = prepare("SELECT name FROM " + globalNamesTable + " WHERE ns = ?");
    String index = settings.keyspace() + ".session_index";
    indexSession = prepare("INSERT INTO " + index + " (ns, bucket, session_id) VALUES (?, ?, ?)");
    unindexSession = prepare("DELETE FROM " + index + " WHERE ns = ? AND bucket = ? AND session_id = ?");
    indexBucket = prepare("SELECT session_id FROM " + index + " WHERE ns = ? AND bucket = ?");
    String names = settings.keyspace() + ".session_names";
    nameOwner = prepare("SELECT session_id FROM " + names + " WHERE ns = ? AND name = ?");
    claimName = prepare("INSERT INTO " + names + " (ns, name, session_id) VALUES (?, ?, ?) IF NOT EXISTS");
    takeOverName = prepare("UPDATE " + names + " SET session_id = ? WHERE ns = ? AND name = ? IF session_id = ?");
    releaseName = prepare("DELETE FROM " + names + " WHERE ns = ? AND name = ? IF session_id = ?");
    String sweeps = settings.keyspace() + ".retention_sweeps";
    lastSweep = prepare("SELECT swept FROM " + sweeps + " WHERE ns = ?");
    claimFirstSweep = prepare("INSERT INTO " + sweeps + " (ns, swept) VALUES (?, ?) IF NOT EXISTS");
    claimSweep = prepare("UPDATE " + sweeps + " SET swept = ? WHERE ns = ? IF swept = ?");
  }

  private PreparedStatement prepare(String cql) {
    return session.prepare(cql);
  }

  /** Runs a read at the read consistency. */
  ResultSet read(BoundStatement statement) {
    return session.execute(statement.setConsistencyLevel(settings.read()));
  }

  /** Runs a read at the serial consistency: it sees every write a condition decided, also ones still in flight. */
  ResultSet readSerial(BoundStatement statement) {
    return session.execute(statement.setConsistencyLevel(settings.serial()));
  }

  /** Runs a write (plain or conditional) at the write consistency, its conditions at the serial consistency. */
  ResultSet write(Statement<?> statement) {
    return session.execute(statement.setConsistencyLevel(settings.write())
        .setSerialConsistencyLevel(settings.serial()));
  }

  /** The consistency a read runs at when {@code serial} says it settles a doubt. */
  ResultSet read(BoundStatement statement, boolean serial) {
    return serial ? readSerial(statement) : read(statement);
  }
}
