package dev.sessionstore.jdbc.internal;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SearchTerm;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What differs between SQL databases, and only that: SQL fragments and capability flags the shared statements are
 * built from (JSON columns, lists bound as one parameter, row locks, upserts, chained writes), how timestamps
 * travel, schema migration, waking waiting reads, and reading driver errors. The algorithms (sequencing, appends,
 * forks, expiry) and every statement that reads alike on all databases are shared; the package documentation lists
 * what a dialect implements. {@link PostgresDialect} and {@link SqliteDialect} implement it; {@link Dialects} chooses
 * one.
 */
interface Dialect {

  // Connections and transactions

  /**
   * The schema the store's tables live in, given the one configured ({@code "public"} unless set).
   *
   * @throws InvalidArgumentException naming {@code schema} if the database cannot hold the tables there
   */
  String tablesSchema(String configured);

  /**
   * Readies a connection just borrowed from the data source, before any work runs on it: the per-connection settings
   * the store's guarantees rest on, which must hold whatever data source the user gave. Runs on every borrowed
   * connection, so it must be cheap (a dialect may set a physical connection once and only check it on later
   * borrows).
   */
  void prepareConnection(Connection connection) throws SQLException;

  /**
   * Runs first in every transaction that may write, once auto-commit is off: where the database lets a transaction
   * that has read take the write lock only later, and fail then rather than wait, this takes it at once.
   */
  void beginWrites(Connection connection) throws SQLException;

  /**
   * Whether one transaction at a time may write to the whole database (SQLite): the store then queues its own write
   * transactions in-process, first come first served, before it borrows their connections, so that they wait in
   * order instead of in the database's busy loop, and only other instances' writers contend there.
   */
  boolean writesOneAtATime();

  /**
   * Whether the database cuts a statement off that runs past a time limit ({@link #limitStatements}): PostgreSQL's
   * {@code statement_timeout}; not SQLite, whose only waits (for the file's write lock) its busy timeout bounds.
   */
  boolean limitsStatements();

  /**
   * Sets, for the rest of the connection's session, the longest any statement may run before the database cancels
   * it, failing as a {@link SqlFailure.Kind#TRANSIENT} error. Only where {@link #limitsStatements()}.
   */
  void limitStatements(Connection connection, Duration timeout) throws SQLException;

  /**
   * Whether the database tells, from another connection, what became of a transaction whose {@code COMMIT} lost its
   * connection ({@link #writingTransaction}, {@link #commitStatus}): PostgreSQL does; SQLite, a file the store's own
   * process writes, has no commit a lost connection leaves in doubt.
   */
  boolean knowsCommitStatus();

  /**
   * Read just before {@code COMMIT}: the id of the connection's transaction if it has written anything, empty if it
   * has written nothing (its commit then changes nothing, whatever becomes of it). Only where
   * {@link #knowsCommitStatus()}.
   */
  OptionalLong writingTransaction(Connection connection) throws SQLException;

  /**
   * What became of the transaction {@code transactionId} ({@link #writingTransaction}), read on another connection.
   * Only where {@link #knowsCommitStatus()}.
   */
  CommitStatus commitStatus(Connection connection, long transactionId) throws SQLException;

  // The data path: fragments and flags the shared statements are built from, and how values travel.

  /**
   * Whether a {@code WITH} clause may hold {@code INSERT}, {@code UPDATE} and {@code DELETE} statements (with
   * {@code RETURNING}) ahead of the statement it prefixes, all in one snapshot. With it, {@link WriteChain}s run as
   * one statement; without it they run statement by statement in one transaction.
   */
  boolean chainsWrites();

  /**
   * Whether a {@code FROM} clause may join a subquery that refers to the items before it ({@code CROSS JOIN LATERAL}).
   * With it, a read of a fork limits the events of each segment it shares in that segment's index scan
   * ({@link LogView}); without it, the shared events are joined to their segments and limited as a whole.
   */
  boolean joinsLaterally();

  /**
   * The segments table as a {@code FROM} item read by its primary key ({@code session_id = ?}), whatever statistics
   * the database keeps: where a planner would scan a table its statistics call small (SQLite after {@code ANALYZE}
   * or {@code PRAGMA optimize}, which a file keeps however many forks come later), the key is named.
   */
  String segmentsBySession(Tables tables);

  /**
   * The segments table as a {@code FROM} item named {@code alias}, read by its source index ({@code source_id}), and
   * {@link #sessionsById} the sessions table by its primary key, whatever statistics the database keeps: where a
   * planner may scan a small table or prefer another index, the index is named (a search reads the segments and
   * sessions that show its hits by these keys, {@link #isAmong} the hits' session ids).
   */
  String segmentsBySource(Tables tables, String alias);

  /**
   * The sessions table as a {@code FROM} item named {@code alias}, read by its primary key ({@code id = ?}); see
   * {@link #segmentsBySource}.
   */
  String sessionsById(Tables tables, String alias);

  /**
   * The statement that appends a batch of new events in one auto-committed call (a function the dialect's schema
   * script installs), or empty where the database has none: appends then take {@link EventAppender}'s locked path
   * in a transaction. Its parameters: the session id, the expected last seq ({@code null}: any), the creation
   * instant of an unknown session, then those of {@link #eventRows} (distinct ids). Under the lock of the session's
   * row, creating the session (status active) if it is unknown and no seq above 0 is expected, it stores the events
   * after the last seq and moves it, unless one of the ids is stored or the last seq is not the expected one; then
   * it writes nothing. It raises no error for a stored id. Its rows have the columns {@code appended, last_seq} and
   * {@link EventRows#COLUMNS}: when it appended, one row, {@code appended} true, with the last seq before the batch;
   * otherwise one row with the last seq as locked (0 for an unknown session) and no event, then one row per stored
   * event among the batch's ids.
   */
  Optional<String> appendInOneCall(Tables tables);

  /**
   * The statement that appends a batch of fresh events in one auto-committed call in the common case, or empty where
   * the database has none: appends then start with {@link #appendInOneCall}. Its parameters are those of
   * {@link #appendInOneCall}. Under the lock of the session's row, in a session that is no fork and at the expected
   * last seq, or one it creates (status active) because it is unknown and no seq above 0 is expected, it stores the
   * events after the last seq and moves it, and returns one row of one column: the last seq before the batch. Where
   * the session is a fork, its last seq is another, or one of the ids is stored, it writes nothing and returns
   * {@code NULL}, raising no error for a stored id; {@link #appendInOneCall} then settles the batch.
   */
  Optional<String> appendFreshInOneCall(Tables tables);

  /**
   * The statement that appends one fresh event in one auto-committed call, as {@link #appendFreshInOneCall} appends
   * a batch, with the same outcomes and result; empty where the database has none, and a batch of one takes
   * {@link #appendFreshInOneCall}. Its parameters: the session id, the expected last seq ({@code NULL}: any), now,
   * then the event's id, type, run id, agent id, parent id, payload text and timestamp ({@code NULL}: now), and where
   * there is a {@link #wordsColumn()}, the payload's {@link dev.sessionstore.spi.SearchText#indexText}.
   */
  Optional<String> appendOneFreshInOneCall(Tables tables);

  /**
   * The statement that begins a write transaction on a connection left in auto-commit, taking the write lock at once
   * ({@code BEGIN IMMEDIATE} on SQLite), which the work then ends itself with {@code COMMIT} or {@code ROLLBACK}
   * ({@link Database#ownTransaction}); empty where appends have {@linkplain #appendInOneCall one call} instead. Where
   * present, an append first tries {@link EventAppender}'s short transaction, which needs no statement of the driver's
   * transaction control.
   */
  Optional<String> beginOwnWrites();

  /** Binds {@code instant} to a timestamp parameter, exactly to the microsecond. */
  void bindInstant(PreparedStatement statement, int index, Instant instant) throws SQLException;

  /** A timestamp column as an instant, or {@code null} for SQL {@code NULL}. */
  Instant readInstant(ResultSet row, String column) throws SQLException;

  /**
   * A bind parameter holding a document's {@link Json#text()}, converted to the type of the document columns. That
   * type must give back the text exactly as written (guarantee 18 of docs/guarantees.md): never one that reorders keys,
   * drops whitespace or renders numbers anew, as PostgreSQL {@code jsonb} does.
   */
  String jsonParameter();

  /**
   * A condition that holds when the document {@code column} holds exactly the text bound to its one parameter, as
   * written: the compare of a compare-and-set rewrite ({@link JdbcStoredValues}).
   */
  String jsonTextEquals(String column);

  /**
   * A bind parameter holding session metadata as a JSON object of strings, converted to the type of the metadata
   * column, which is queried by containment and whose text is never returned as written.
   */
  String metadataParameter();

  /**
   * A document column read back as {@link Json}, or {@code null} for SQL {@code NULL}: the text written, handed
   * back by {@link dev.sessionstore.spi.StoredJson#of} without parsing it again. The store writes a document column
   * only with the text of a {@link Json}, which was validated when it was made; the tables are the store's own, and
   * text other clients put there directly is outside the contract.
   */
  Json readJson(ResultSet row, String column) throws SQLException;

  /**
   * A condition that holds when the metadata {@code column} contains every entry of the JSON object of strings
   * bound to its one parameter.
   */
  String containsMetadata(String column);

  /**
   * An expression for the text of a top-level string field of a document column, the field's key bound to its one
   * parameter.
   */
  String jsonTextField(String column);

  /**
   * A condition that holds when the text {@code column} equals one of a list bound to its one parameter
   * ({@link #textList}).
   */
  String isAnyOf(String column);

  /**
   * A condition that holds when {@code column} equals one of the values {@code keys}, a query of one column, returns,
   * read through {@code column}'s index by each value, whatever the planner estimates of {@code keys}' size: a
   * search's keys come from its hits, which a planner may overestimate a thousandfold (PostgreSQL's estimate of a
   * {@code tsvector} match of a rare word), and would then read the whole table instead.
   */
  String isAmong(String column, String keys);

  /** The one parameter of {@link #isAnyOf}. */
  Object textList(Connection connection, Collection<String> values) throws SQLException;

  /**
   * A {@code FROM} item with one row per new event of a batch, bound by {@link #eventRowsParameters}: columns
   * {@code id, type, run_id, agent_id, parent_id, payload} (of the document type), {@code ts}, {@code ordinality}, the
   * event's position in the batch from 1, and where there is a {@link #wordsColumn()}, {@code words}: the event's
   * {@link dev.sessionstore.spi.SearchText#indexText}, for {@link #indexedWords}.
   */
  String eventRows(String alias);

  /** The parameters of {@link #eventRows}; an event without a timestamp gets {@code now}. */
  List<Object> eventRowsParameters(Connection connection, List<NewEvent> events, Instant now)
      throws SQLException;

  // Search: the index of the words of events' payloads (dev.sessionstore.spi.SearchText)

  /**
   * The column of the events table that holds an event's indexed words, which every statement that writes an event
   * row writes with it ({@link #indexedWords}); empty where the store writes a search table instead
   * ({@link #indexStoredEvents}).
   */
  Optional<String> wordsColumn();

  /**
   * Where the store writes the rows of a search table itself ({@link Tables#search()}, keyed by the events table's
   * rowid: SQLite's FTS5 index, schema version 7), in the transaction that writes the event rows: the one statement
   * that indexes events just stored in one session with consecutive seqs, whatever their number. Its parameters: the
   * {@link #textList} of the events' {@link dev.sessionstore.spi.SearchText#indexText} in seq order, the session id,
   * the first event's seq. Empty where the database keeps the words in {@link #wordsColumn()}.
   */
  Optional<String> indexStoredEvents(Tables tables);

  /**
   * An expression for the value of {@link #wordsColumn()} made from {@code text}, an expression for an event's
   * {@link dev.sessionstore.spi.SearchText#indexText}: exactly those words, none read again by the database. Only
   * where {@link #wordsColumn()} is present.
   */
  String indexedWords(String text);

  /**
   * A condition that holds for the row of the events table {@code alias} (also where the condition reads the
   * database's own index of it) when its payload holds each of the words bound to its one parameter
   * ({@link #wordsQuery}): the read of the index, so that a search reads the rows that hold them and no other.
   */
  String holdsWords(Tables tables, String alias);

  /**
   * The one parameter of {@link #holdsWords}: {@code words} (those of
   * {@link dev.sessionstore.spi.SearchText#indexWords}, each one word, a prefix as a prefix) in the syntax of the
   * database's index query, every word quoted, so that the database reads no word differently from the index.
   */
  String wordsQuery(List<SearchTerm> words);

  /**
   * An expression whose value grows with every write of a run row, whichever instance writes it: the database's own
   * clock advancing within a transaction, or a counter where every write holds the database's write lock. It orders
   * runs the store clock stamped alike.
   */
  String writeOrder(Tables tables);

  /** The clause that makes an insert update the row it collides with on {@code conflictTarget}. */
  String onConflictUpdate(String conflictTarget, String assignments);

  /** The clause that makes an insert skip a row that collides on {@code conflictTarget}. */
  String onConflictIgnore(String conflictTarget);

  /**
   * The clause appended to a {@code SELECT} of rows the transaction will change, locking them against other writers
   * until commit without blocking foreign-key checks of rows that reference them; empty where a transaction that
   * writes holds the whole database.
   */
  String lockForUpdate();

  /**
   * The clause appended to a {@code SELECT} (also one feeding an {@code INSERT}) of rows that must not change until
   * commit, without excluding other readers; empty where a transaction that writes holds the whole database.
   */
  String lockForShare();

  /**
   * The statement that, run first in a transaction, makes the transaction read-only and every statement of it read
   * one snapshot of the database, taken at its first read; empty where every transaction that does not
   * {@linkplain #beginWrites begin writes} already reads one snapshot.
   */
  String snapshotTransaction();

  /**
   * Like {@link #lockForUpdate()}, skipping the rows another transaction holds instead of waiting for them; empty
   * where a transaction that writes holds the whole database.
   */
  String lockSkippingLocked();

  /** The constraint name a {@link SqlFailure} reports when an insert collides on {@code key}. */
  String uniqueKeyName(Tables tables, UniqueKey key);

  /** The earliest instant a timestamp column stores exactly. */
  Instant earliestStorable();

  /** Whether a timestamp column stores {@code instant} exactly: from {@link #earliestStorable()} to a last one. */
  boolean isStorable(Instant instant);

  /**
   * {@code instant}, if a timestamp column stores it exactly.
   *
   * @throws InvalidArgumentException naming {@code field} if it does not
   */
  default Instant requireStorable(String field, Instant instant) {
    if (!isStorable(instant)) {
      throw new InvalidArgumentException(field, instant + " is outside the range of instants the database stores");
    }
    return instant;
  }

  // Waking waiting reads of other instances

  /**
   * Whether appends announce themselves to other store instances by a notification the store sends (PostgreSQL:
   * {@code NOTIFY}, through a {@link NotificationSender}). Without it, the {@link #listen listener} learns of other
   * writers' commits on its own (SQLite: the database's change counter), or waiting reads poll.
   */
  boolean notifies();

  /**
   * The name appends to {@code tables} announce themselves under, shared by every instance on the same schema and
   * prefix, and no other.
   */
  String channel(Tables tables);

  /**
   * A query that announces appends to the listeners of {@link #listen}, auto-committed: one notification on the
   * channel given as its first parameter for each wake key ({@link SessionWaiters#wakeKey}) of the text array given
   * as its second. Only called if {@link #notifies()}.
   */
  String notifyEach();

  /**
   * Starts delivering other writers' appends to {@code tables} to {@code waiters}, on a connection of the settings'
   * notification data source, as the settings' intervals say; returns {@link WakeUpListener#NONE} (having logged
   * why) when the data source's connections cannot listen. Only called if notifications are on.
   */
  WakeUpListener listen(StoreSettings settings, Tables tables, SessionWaiters waiters);

  // Schema migration

  /** The classpath folder of this dialect's migration scripts, ending in {@code /}. */
  String migrationFolder();

  /**
   * Takes the database-wide lock that serializes the migrations of {@code tables}, held until the transaction
   * ends (so no failure can leave it held), waiting for it at most {@code timeout}. The timeout also bounds every
   * lock the rest of the migration's transaction waits for.
   *
   * @throws SQLException classified {@link SqlFailure.Kind#TRANSIENT} when the timeout passed first
   */
  void lockForMigration(Connection connection, Tables tables, Duration timeout) throws SQLException;

  /** Creates the schema of {@code tables} unless it exists, and their version table unless it exists. */
  void createSchemaAndVersionTable(Connection connection, Tables tables) throws SQLException;

  /** Whether the version table of {@code tables} exists. */
  boolean versionTableExists(Connection connection, Tables tables) throws SQLException;

  /** Runs a migration script of several statements in the connection's transaction. */
  void runScript(Connection connection, String script) throws SQLException;

  // Failures and limits

  /**
   * Rejects a batch of events that the append statement could not send: more bytes than the database takes in
   * one statement or one value.
   *
   * @throws InvalidArgumentException naming {@code events} and the limit
   */
  void requireWithinStatementLimit(List<NewEvent> events);

  /** What a driver error means for the store. */
  SqlFailure classify(SQLException error);

  /** The error's message as the database worded it, for the store's own messages. */
  default String message(SQLException error) {
    return String.valueOf(error.getMessage());
  }
}
