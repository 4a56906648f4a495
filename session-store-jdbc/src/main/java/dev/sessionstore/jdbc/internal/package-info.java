/**
 * The implementation of the JDBC adapter. Not API: unsupported for direct use and may change in any release; build
 * stores with {@link dev.sessionstore.jdbc.JdbcSessionStore#builder()}.
 *
 * <h2>What a dialect implements</h2>
 *
 * <p>A database is one {@link dev.sessionstore.jdbc.internal.Dialect}, chosen by
 * {@link dev.sessionstore.jdbc.internal.Dialects} from the connection metadata, plus its migration scripts under
 * {@code dev/sessionstore/jdbc/<database>/}. It implements:
 * <ul>
 *   <li>{@code tablesSchema}: where the tables live, given the configured schema;</li>
 *   <li>{@code prepareConnection}: the per-connection settings every borrowed connection gets, whatever the data
 *       source;</li>
 *   <li>{@code beginWrites}: what a transaction that may write runs first (SQLite: {@code BEGIN IMMEDIATE});</li>
 *   <li>{@code writesOneAtATime()}: whether the store queues its write transactions in-process (SQLite);</li>
 *   <li>{@code chainsWrites()}: whether writes chain in one {@code WITH} statement (one-statement fork, cut and
 *       implicit session); without, they run one by one in a transaction;</li>
 *   <li>{@code joinsLaterally()}: whether a read of a fork limits each shared segment in its own index scan
 *       ({@code CROSS JOIN LATERAL}); without, the shared rows are joined to their segments and limited together;</li>
 *   <li>{@code appendFreshInOneCall}: the auto-committed call that appends fresh events to a session that is no
 *       fork, at its expected last seq, and settles nothing else (PostgreSQL: a function of its schema), or none;</li>
 *   <li>{@code appendOneFreshInOneCall}: the same for one event, its columns bound as scalars, or none;</li>
 *   <li>{@code appendInOneCall}: the auto-committed call that appends a batch in one round trip (PostgreSQL: a
 *       function of its schema script), or none, and appends take the portable locked path;</li>
 *   <li>{@code bindInstant}, {@code readInstant}: how a timestamp is bound and read, exact to the microsecond;</li>
 *   <li>{@code jsonParameter()}, {@code readJson}: the document column type, read back with the text written;</li>
 *   <li>{@code metadataParameter()}, {@code containsMetadata}: the metadata column and its containment filter;</li>
 *   <li>{@code jsonTextField}: one string field of a document, its key a parameter, as the resumable-sessions
 *       filter reads it;</li>
 *   <li>{@code isAnyOf}, {@code textList}: a list of strings bound as one parameter, as a condition;</li>
 *   <li>{@code isAmong}: the values of a subquery as a condition read through an index by each value;</li>
 *   <li>{@code eventRows}, {@code eventRowsParameters}: a batch of new events bound as rows with their position;</li>
 *   <li>{@code wordsColumn()}, {@code indexedWords}, {@code indexStoredEvents}, {@code holdsWords},
 *       {@code wordsQuery}: the index of the events' words that search reads (PostgreSQL: a {@code tsvector} column
 *       every event write fills; SQLite: an FTS5 table the store writes in the same transaction), and its query;</li>
 *   <li>{@code segmentsBySource}, {@code sessionsById}: those tables read by a named index where a planner might
 *       not;</li>
 *   <li>{@code writeOrder}: a value growing with every write of a run (a clock or a counter), which orders runs
 *       stamped alike;</li>
 *   <li>{@code onConflictUpdate}, {@code onConflictIgnore}: the upsert clauses;</li>
 *   <li>{@code lockForUpdate()}, {@code lockForShare()}, {@code lockSkippingLocked()}: row locks, empty where a
 *       writing transaction holds the whole database;</li>
 *   <li>{@code snapshotTransaction()}: a read-only transaction whose statements all read one snapshot;</li>
 *   <li>{@code uniqueKeyName}: the constraint a failure names when a session id or name is taken;</li>
 *   <li>{@code earliestStorable()}, {@code isStorable}: the instants a timestamp column stores exactly;</li>
 *   <li>{@code notifies()}, {@code channel}, {@code notifyEach()}, {@code listen}: whether appends send
 *       notifications, and how a store learns of other instances' commits (PostgreSQL: {@code LISTEN}; SQLite: the
 *       file's change counter, polled); without a listener waiting reads poll;</li>
 *   <li>{@code migrationFolder()}, {@code lockForMigration}, {@code createSchemaAndVersionTable},
 *       {@code versionTableExists}, {@code runScript}: the scripts, the lock that serializes migrations under a
 *       timeout, and how a script runs;</li>
 *   <li>{@code requireWithinStatementLimit}: refuses a batch past what one statement may carry;</li>
 *   <li>{@code knowsCommitStatus()}, {@code writingTransaction}, {@code commitStatus}: whether, and how, the database
 *       tells from another connection what became of a transaction whose {@code COMMIT} lost its connection;</li>
 *   <li>{@code limitsStatements()}, {@code limitStatements}: the statement timeout, where the database has one;</li>
 *   <li>{@code classify}, {@code message}: what a driver error means (kind, SQLState, retryable), and its message
 *       as the database worded it.</li>
 * </ul>
 *
 * <h2>What stays shared</h2>
 *
 * <p>Every algorithm and every statement that reads alike on all databases: sequencing under the lock of the
 * session's row and the append paths ({@link dev.sessionstore.jdbc.internal.EventAppender}), agent steps, forks and
 * the reads of a log through its segments ({@link dev.sessionstore.jdbc.internal.LogView}), keeping forks whole
 * ({@link dev.sessionstore.jdbc.internal.Dependents}), truncation, tool-call resolution and expiry, summaries, revival and chapters, checkpoints, the audit, paging,
 * retries and outcome settling ({@link dev.sessionstore.jdbc.internal.Database}), chained writes
 * ({@link dev.sessionstore.jdbc.internal.WriteChain}), waiting and waking in-process, and the schema version table.
 */
package dev.sessionstore.jdbc.internal;
