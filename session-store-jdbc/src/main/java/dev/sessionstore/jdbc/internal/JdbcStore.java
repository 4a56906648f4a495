package dev.sessionstore.jdbc.internal;

import dev.sessionstore.Archives;
import dev.sessionstore.Capability;
import dev.sessionstore.Checkpoints;
import dev.sessionstore.EventLog;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.ModelCallAudit;
import dev.sessionstore.Retention;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.Runs;
import dev.sessionstore.Search;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Sessions;
import dev.sessionstore.Step;
import dev.sessionstore.StepOutcome;
import dev.sessionstore.Summaries;
import dev.sessionstore.ToolCalls;
import dev.sessionstore.spi.StoreEventSource;
import dev.sessionstore.spi.StoreEventSubscription;
import dev.sessionstore.spi.StoreEvents;
import dev.sessionstore.spi.StoredValues;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.time.Clock;
import java.util.EnumSet;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The JDBC session store.
 *
 * <h2>Design</h2>
 *
 * <p><b>State lives in the database only.</b> A store instance keeps no cache: any number of instances, in any
 * number of processes, on one schema and prefix behave as one store. Each call borrows a connection from the data
 * source for one unit of work ({@link Database}); reads are single statements in auto-commit, writes that take more
 * than one statement run in one READ COMMITTED transaction, re-run on deadlock.
 *
 * <p><b>Sequencing.</b> The session's row holds the last seq of its log ({@code last_seq}); appends to a session
 * serialize on that row's lock ({@link Dialect#lockForUpdate()}: on PostgreSQL {@code FOR NO KEY UPDATE}, so
 * foreign-key checks and other sessions proceed), and seqs are assigned from it under the lock. No sequence or
 * identity column is involved, so a failed transaction leaves no gap. Where the dialect has append calls (on
 * PostgreSQL functions of the schema), the common append is one auto-committed call ({@code append_fresh}): it locks
 * the row of a session that is no fork by moving the last seq from the expected one (or creates an unknown session)
 * and inserts the events after it, the lock held only until its commit, and returns the old last seq. Anything else
 * (a fork, another last seq, a stored id, which the unique key finds as it inserts) makes it write nothing
 * and return nothing, and the second call ({@code append_events}) settles it: it undoes its writes on a stored id and
 * reports the stored events, from which a replay, a reused id or a seq conflict is answered at once. A batch of
 * stored and fresh events, and every append where the dialect has no such call, takes the lock first in a
 * transaction, reads the stored events among the batch's ids, and lets {@link dev.sessionstore.spi.EventBatch} split
 * replays from fresh events before storing the fresh ones ({@link EventAppender}). Truncation takes the same lock and moves the last seq back.
 *
 * <p><b>Agent steps</b> ({@link StepCommitter}) take the same lock of the session's row first, so a step and the
 * appends of its session serialize; everything the step reads after it (stored ids, the tool calls it names,
 * locked) is current, and everything it writes commits together or not at all. A stale resolution rolls the
 * transaction back and is returned as a value. A step carrying a fencing token then reads its session's writer claim
 * with a share lock ({@link WriterFences}), so a claim waits for it and steps after the claim see the new token;
 * claims live in a table of their own (one row per session id ever claimed, kept when the session is deleted) and
 * move the token with one upsert.
 *
 * <p><b>Round trips</b> on PostgreSQL (statements plus commit; a transaction's {@code BEGIN} travels with its first
 * statement): append or batch append 1 (the fresh call, also to a new session; no notification inside); 2 to a fork,
 * or for a replay, a reused id or a seq conflict (the fresh call, then the settling call); 6 with fresh events among
 * replayed ones (the two calls, then lock, id lookup, store, commit); a step 3 plus about one per member (lock, id lookup, a locked read and
 * a write per tool call, session read, commit), one more with a fencing token; a claim 2 (upsert, commit); truncate 3; session, run or tool call save 3 (locked read, write,
 * commit); fork 3 (share-lock the parent and its segments' sources, the chained write of everything the fork takes,
 * commit); truncate and delete 2 more when forks share the events that go (lock them, copy into them);
 * resolve 1 for the winner, 2 for a stale call; deadline set or cancel 1; summary put 1; checkpoint and audit
 * writes 1 (an implicit session is created in the same statement); every read 1, revival and chapters included;
 * an export 10 (a read of due tool calls, then one snapshot: its start, a read per table, commit;
 * {@link JdbcArchives}); an import 2 plus one per batch of the log and one per other table it fills, in one
 * transaction.
 * Without chained writes ({@link WriteChain}) each chained write is a statement of its own.
 *
 * <p><b>Waiting reads and tool-call waits.</b> A waiting read or a wait for a tool call registers in-process ({@link SessionWaiters}) and holds no connection
 * while it waits ({@link SessionWait}). Appends, steps, resolutions and expiries wake the session's waiters once
 * committed ({@link AppendNotifier}): this instance's own directly, every other writer's through a notification on
 * the store's channel (payload: the session id, or a digest of a long one), received by one {@code LISTEN}
 * connection per instance ({@link WakeUpListener}), kept alive by a periodic round trip. Notification is a dialect
 * capability, and can be turned off or given a data source of its own: without it, waiting reads find other
 * writers' appends by polling. Notifications are not sent in the append's transaction, because PostgreSQL commits
 * notifying transactions one at a time, server-wide: a background thread per instance ({@link NotificationSender})
 * sends the sessions appended to since its last statement, each once, in one auto-committed statement at most every
 * 2 ms, so appends commit in parallel and a burst of appends costs a few notifications. Measured again side by side
 * (2026-11-25, 2 cores under other builds, two rounds interleaved with this code): notifying inside the append's
 * own call ({@code pg_notify} joined to it, delivered at its commit) left single appends where they were (0.673× and
 * 0.628× of the raw twin, against 0.665× and 0.719×) and cut 16 writers over 1,000 sessions to 3.8k and 1.4k
 * appends/s (against 11.5k and 6.7k): the notifying commits queue one at a time. A woken read re-reads the
 * table; without a wake-up it re-reads every poll interval, so a lost notification (the process stopped between
 * commit and notification, the database failed the notification) only delays it.
 *
 * <p><b>Deadlines.</b> Stored on the tool call; due once the store clock reaches them. Reads expire the due calls
 * they meet in the database before answering; a {@link DeadlineSweeper} per instance expires the rest, skipping
 * the calls another sweeper holds ({@link Dialect#lockSkippingLocked()}), so a deadline outlives the instance that
 * set it and never fires twice.
 *
 * <p><b>Retention</b> ({@link JdbcRetention}) deletes idle sessions and cuts old chapters session by session, each
 * in a transaction with the locks of a deletion or truncation, forks kept whole as there; a cut is recorded in the
 * session's {@code cut_seq}. Its schedule, when configured, runs beside the deadline sweeps
 * ({@link DeadlineSweeper#alsoEvery}) and skips sessions another instance or writer holds ({@code SKIP LOCKED}).
 *
 * <p><b>Forks</b> share their parent's events instead of copying them: a fork's log is its own rows plus segments
 * (table {@code segments}) naming seq ranges of its ancestors' rows, flattened, so forking writes O(depth) segment
 * rows and takes the summaries, runs, tool calls and checkpoints {@link dev.sessionstore.spi.ForkRule} gives it by
 * index lookups, never scanning the prefix: its time does not depend on the log's length. Every read of a log
 * goes through {@link LogView}: the session's own rows and its shared segments, each an index range scan limited to
 * the page; a session that is no fork pays one empty probe of the segments' key. Appends to a fork check its shared
 * ids in the same call ({@code shared_seq} in the session's row says whether to look). Shared rows never change
 * while shared: truncation and deletion first copy the rows that forks share into them ({@link Dependents}), in the
 * same transaction, and a fork share-locks the rows it starts sharing until it commits.
 */
public final class JdbcStore implements SessionStore, StoreEventSource {

  private static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.allOf(Capability.class));

  private final Database database;
  private final JdbcStoredValues storedValues;
  private final Clock clock;
  private final EventAppender appender;
  private final SessionWaiters waiters;
  private final JdbcSessions sessions;
  private final JdbcEventLog events;
  private final JdbcRuns runs;
  private final JdbcToolCalls toolCalls;
  private final JdbcSummaries summaries;
  private final JdbcCheckpoints checkpoints;
  private final JdbcModelCallAudit modelCalls;
  private final JdbcArchives archives;
  private final StepCommitter steps;
  private final AppendNotifier notifier;
  private final WakeUpListener listener;
  private final DeadlineSweeper sweeper;
  private final JdbcRetention retention;
  private final JdbcSearch search;
  private final String description;
  private final OptionalInt schemaVersion;

  private JdbcStore(StoreSettings settings, Database database, Tables tables, String databaseAddress,
      int schemaVersion) {
    this.database = database;
    this.schemaVersion = OptionalInt.of(schemaVersion);
    this.description = "JdbcSessionStore[database=" + databaseAddress + ", schema=" + tables.schemaName()
        + ", tablePrefix=" + tables.prefix() + "]";
    this.clock = settings.clock();
    Dialect dialect = database.dialect();
    ImplicitSession implicitSession = new ImplicitSession(tables, dialect);
    this.appender = new EventAppender(database, tables, implicitSession);
    this.waiters = new SessionWaiters();
    this.listener = settings.notifications() ? dialect.listen(settings, tables, waiters) : WakeUpListener.NONE;
    this.notifier = new AppendNotifier(waiters, settings.notifications() && dialect.notifies()
        ? Optional.of(new NotificationSender(settings.notificationDataSource(), dialect, dialect.channel(tables)))
        : Optional.empty());
    SessionWait waiting = new SessionWait(database, waiters, settings.waitPollInterval(),
        "the database of " + description);
    this.sessions = new JdbcSessions(database, tables, clock);
    this.events = new JdbcEventLog(database, tables, clock, appender, notifier, waiting);
    this.runs = new JdbcRuns(database, tables, clock, implicitSession);
    this.toolCalls = new JdbcToolCalls(database, tables, clock, implicitSession, notifier, waiting);
    this.summaries = new JdbcSummaries(database, tables, clock);
    this.checkpoints = new JdbcCheckpoints(database, tables, clock, implicitSession);
    this.modelCalls = new JdbcModelCallAudit(database, tables, clock, settings.modelCallAudit(), implicitSession);
    this.storedValues = new JdbcStoredValues(database, tables);
    this.archives = new JdbcArchives(database, tables, clock, appender, notifier, sessions, events, runs, toolCalls,
        summaries, checkpoints, modelCalls);
    this.steps = new StepCommitter(database, clock, tables, implicitSession, appender, sessions, runs, toolCalls,
        summaries, checkpoints, modelCalls, notifier);
    this.sweeper = new DeadlineSweeper(database, toolCalls, clock, settings.deadlineSweepInterval(),
        tables.schemaName() + "." + tables.prefix());
    this.retention = new JdbcRetention(database, tables, clock, sessions, settings.modelCallAudit());
    this.search = new JdbcSearch(database, tables);
    if (settings.retentionPolicy() != null) {
      RetentionPolicy policy = settings.retentionPolicy();
      sweeper.alsoEvery(settings.retentionInterval(), "retention sweep", () -> retention.sweep(policy));
    }
  }

  /**
   * Chooses the dialect of the settings' database, creates or checks the schema, then opens a store on it. The store
   * is used only behind {@link dev.sessionstore.spi.ValidatingSessionStore}: it relies on the layer's checks of
   * arguments and of the closed state, and checks neither again.
   *
   * @throws dev.sessionstore.InvalidArgumentException naming {@code dataSource} if its database is not supported
   * @throws dev.sessionstore.StoreFailureException    if the database fails or the schema is not usable
   */
  public static SessionStore open(StoreSettings settings) {
    return open(settings, Dialects.of(settings.dataSource(), settings.connectTimeout()));
  }

  /** Creates or checks the schema, then opens a store on it that speaks {@code dialect}. */
  static SessionStore open(StoreSettings settings, Dialect dialect) {
    Tables tables = new Tables(dialect.tablesSchema(settings.schema()), settings.tablePrefix());
    if (!settings.statementTimeout().isZero() && !dialect.limitsStatements()) {
      throw new InvalidArgumentException("statementTimeout", "SQLite has no statement timeout (a statement waits"
          + " only for the file's write lock, bounded by the 5 s busy timeout): leave it unset");
    }
    Database database = new Database(settings.dataSource(), dialect, settings.retryTimeout(),
        settings.statementTimeout());
    SchemaMigrator migrator = new SchemaMigrator(database, tables, settings.migrationLockTimeout());
    int schemaVersion = settings.createSchema() ? migrator.migrate() : migrator.verify();
    if (dialect.wordsColumn().isPresent()) {
      EventWords words = new EventWords(dialect, tables);
      database.transaction("index the words of events stored before search", connection -> {
        words.indexUnindexed(connection);
        return null;
      });
    }
    String address = database.read("read the database address", connection -> address(connection.getMetaData()));
    return new JdbcStore(settings, database, tables, address, schemaVersion);
  }

  /** The database's JDBC URL without user, password or other properties, which may hold secrets. */
  private static String address(DatabaseMetaData metaData) throws SQLException {
    String url = metaData.getURL();
    if (url == null) {
      return metaData.getDatabaseProductName();
    }
    int properties = url.indexOf('?');
    String address = properties < 0 ? url : url.substring(0, properties);
    return address.replaceFirst("//[^/@]*@", "//");
  }

  @Override
  public Sessions sessions() {
    return sessions;
  }

  @Override
  public EventLog events() {
    return events;
  }

  @Override
  public Runs runs() {
    return runs;
  }

  @Override
  public ToolCalls toolCalls() {
    return toolCalls;
  }

  @Override
  public Summaries summaries() {
    return summaries;
  }

  @Override
  public Checkpoints checkpoints() {
    return checkpoints;
  }

  @Override
  public ModelCallAudit modelCalls() {
    return modelCalls;
  }

  @Override
  public Archives archives() {
    return archives;
  }

  @Override
  public Retention retention() {
    return retention;
  }

  @Override
  public Search search() {
    return search;
  }

  @Override
  public StepOutcome commit(Step step) {
    return steps.commit(step);
  }

  /** This store's {@link StoredValues} ({@link Capability#STORED_VALUE_REWRITE}), else what the default answers. */
  @Override
  public <T> Optional<T> unwrap(Class<T> type) {
    return type == StoredValues.class ? Optional.of(type.cast(storedValues)) : SessionStore.super.unwrap(type);
  }

  @Override
  public Set<Capability> capabilities() {
    return CAPABILITIES;
  }

  /**
   * Reports retries and settled outcomes ({@link Database}), each deadline the sweeper fires ({@link DeadlineSweeper})
   * and the wake latency of waiting reads this instance's own commits woke ({@link SessionWait}).
   */
  @Override
  public StoreEventSubscription subscribe(StoreEvents listener) {
    return database.events().subscribe(listener);
  }

  /** The waiting reads and tool-call waits of this instance sleeping now. */
  @Override
  public int parkedReads() {
    return database.events().parkedReads();
  }

  /** This store's waiting reads, for tests that must see a read parked before they append. */
  SessionWaiters waiters() {
    return waiters;
  }

  /** This store's listener for other writers' appends, {@link WakeUpListener#NONE} without one. */
  WakeUpListener listener() {
    return listener;
  }

  /** The version the schema recorded when the store was built: the last migration applied to it. */
  @Override
  public OptionalInt schemaVersion() {
    return schemaVersion;
  }

  /** The adapter and its target: database address, schema and table prefix; never a user or password. */
  @Override
  public String toString() {
    return description;
  }

  /**
   * Stops the sweeper and the retries of calls under way, sends the pending notifications of appends, stops the
   * listener and ends every wait under way with what it has. The data source stays open. Called once, by the
   * validating layer in front of the store, which refuses every call after it.
   */
  @Override
  public void close() {
    sweeper.close();
    database.close();
    notifier.close();
    listener.close();
    waiters.wakeAll();
    database.events().close();
  }
}
