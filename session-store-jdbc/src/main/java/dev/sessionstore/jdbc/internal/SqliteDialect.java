package dev.sessionstore.jdbc.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SearchTerm;
import dev.sessionstore.spi.SearchText;
import dev.sessionstore.spi.StoredJson;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.stream.Collectors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.sqlite.Function;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * SQLite 3.38 or later through sqlite-jdbc (xerial), on a database file that any number of store instances, in one
 * process or many, open at once.
 *
 * <p><b>Durability and locking.</b> Every connection the store borrows is set, whatever data source it came from
 * (a plain {@code SQLiteDataSource}, a pool, a URL), once per physical connection (the first time the store borrows
 * it), to {@code journal_mode=WAL} (readers never wait for the writer, and the writer never waits for readers),
 * {@code synchronous=NORMAL} (each commit is written to the write-ahead log before it returns, which is synced at
 * checkpoints: an acknowledged write survives a kill of the process; a power loss or an operating-system crash can
 * lose the last commits before a checkpoint, never the file's consistency), {@code foreign_keys=ON} (deleting a
 * session cascades to what it owns) and a busy timeout of {@value #BUSY_TIMEOUT_MILLIS} ms. A transaction
 * that may write starts with {@code BEGIN IMMEDIATE}: it takes the database's one write lock before it reads, waiting
 * for it up to the busy timeout, so no transaction ever has to upgrade a read to a write (which SQLite fails at once
 * rather than wait: a deadlock). The write lock serializes writers, which is what the row locks of other databases
 * give here: the lock clauses are empty. Busy past the timeout ({@code SQLITE_BUSY}, {@code SQLITE_LOCKED}) is a
 * rolled-back transaction that the store runs again after a short pause, and, past those pauses, a retryable failure.
 * Read-only snapshots are deferred transactions, which in WAL mode read one snapshot from their first read on.
 *
 * <p><b>Types.</b> Tables are {@code STRICT}. Documents are {@code TEXT} holding the text as written; session metadata
 * is the JSON text of its map, filtered with the JSON1 functions ({@code json_each}); timestamps are {@code INTEGER}
 * microseconds since the epoch, from 0001-01-01 (as on PostgreSQL) to the last microsecond a 64-bit count holds
 * (year 294247); lists and batches travel as one JSON array parameter, read by {@code json_each}. Text compares
 * bytewise ({@code BINARY}), so ids are byte-exact and order as PostgreSQL's {@code "C"} collation orders them.
 *
 * <p><b>Waking other instances.</b> SQLite has no notifications: a {@link SqliteChangeListener} asks the file's change
 * counter ({@code PRAGMA data_version}) on a connection of its own every change poll interval (default 50 ms) and
 * wakes the waiting reads of the sessions another connection's commit changed. Appends of a store wake its own waiting
 * reads at once; another process's append wakes them within about one interval (measured with 50 ms on a busy
 * 2-core machine, append to woken read across JVMs: p50 25 ms, p99 54 ms). Write transactions of one store queue
 * in-process ({@link #writesOneAtATime()}), so only other instances' writers meet in SQLite's busy loop.
 *
 * <p>The tables live in the connection's {@code main} database: the schema setting must stay {@code public} (the
 * default) or be {@code main}; table prefixes keep several stores apart in one file.
 */
final class SqliteDialect implements Dialect {

  /** How long a statement waits for another connection's write lock before it fails busy. */
  static final int BUSY_TIMEOUT_MILLIS = 5_000;

  /** What every borrowed connection is set to; one call, outside any transaction. */
  private static final String CONNECTION_SETTINGS = "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;"
      + " PRAGMA foreign_keys = ON; PRAGMA busy_timeout = " + BUSY_TIMEOUT_MILLIS;

  /**
   * The SQL function of a payload's text that schema version 5's script calls to index the events stored before it
   * (and that its insert and update triggers called until version 7 dropped them): its {@link SearchText#indexText}.
   * The store registers it only while it runs migration scripts ({@link #runScript}); its own writes index events
   * themselves ({@link #indexStoredEvents}).
   */
  static final String WORDS_FUNCTION = "session_store_words";

  /** As on PostgreSQL, so that every adapter stores the same instants. */
  private static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
  /** The last microsecond a signed 64-bit count of microseconds since the epoch holds. */
  private static final Instant LATEST = Instant.ofEpochSecond(Long.MAX_VALUE / 1_000_000,
      Long.MAX_VALUE % 1_000_000 * 1_000);
  /**
   * The most bytes the batch's one JSON parameter may take: SQLite's limit for one string, {@code SQLITE_MAX_LENGTH}
   * (10^9 bytes by default), less 1 MiB of headroom.
   */
  private static final long MAX_PARAMETER_BYTES = 1_000_000_000L - (1L << 20);
  /** An event's array brackets, separators and its timestamp, a number of at most 20 chars. */
  private static final long EVENT_FRAME_BYTES = 32;
  /** {@code null,} */
  private static final long NULL_ELEMENT_BYTES = 5;
  /** The column list of a unique violation, as SQLite words it: {@code ... constraint failed: t.a, t.b}. */
  private static final Pattern CONSTRAINT = Pattern.compile("constraint failed: ([^)]*)");

  private static final JsonFactory JSON = new JsonFactory();

  /** Runs this dialect's own statements (migration, schema checks). */
  private final Sql sql = new Sql(this);

  /**
   * The driver's physical connections already set ({@link #prepareConnection}), held weakly: a connection closed and
   * collected leaves the set. Identity, as {@code SQLiteConnection} keeps {@code Object}'s equality.
   */
  private final Set<SQLiteConnection> prepared = Collections.synchronizedSet(Collections.newSetFromMap(
      new WeakHashMap<>()));

  /** {@code main}: SQLite has no schemas, only attached databases, of which {@code main} is the file itself. */
  @Override
  public String tablesSchema(String configured) {
    if (!configured.equals("public") && !configured.equals("main")) {
      throw new InvalidArgumentException("schema", "\"" + configured + "\": SQLite keeps every table in the"
          + " database file (schema main); leave the schema unset and keep stores apart with tablePrefix");
    }
    return "main";
  }

  /**
   * WAL, {@code synchronous=NORMAL}, foreign keys and the busy timeout, in one call, once per physical connection of
   * the driver: the first time the store borrows it, whichever pool or wrapper hands it out (it is found by
   * {@link Connection#unwrap}; a connection that does not unwrap to the driver's is set on every borrow). The pragmas
   * need auto-commit ({@code foreign_keys} is ignored inside a transaction), which a pool configured without it would
   * not give; auto-commit is checked on every borrow.
   */
  @Override
  public void prepareConnection(Connection connection) throws SQLException {
    if (!connection.getAutoCommit()) {
      connection.setAutoCommit(true);
    }
    SQLiteConnection physical = physical(connection);
    if (physical != null && prepared.contains(physical)) {
      return;
    }
    try (Statement statement = connection.createStatement()) {
      statement.executeUpdate(CONNECTION_SETTINGS);
    }
    if (physical != null) {
      prepared.add(physical);
    }
  }

  /**
   * {@link #WORDS_FUNCTION}: one instance per registration, as the driver keeps a call's arguments in the instance.
   */
  private static final class IndexText extends Function {

    @Override
    protected void xFunc() throws SQLException {
      result(SearchText.indexText(StoredJson.of(value_text(0))));
    }
  }

  /** The driver's connection under {@code connection}'s wrappers, or {@code null} if it does not unwrap to one. */
  private static SQLiteConnection physical(Connection connection) throws SQLException {
    if (connection instanceof SQLiteConnection sqlite) {
      return sqlite;
    }
    return connection.isWrapperFor(SQLiteConnection.class) ? connection.unwrap(SQLiteConnection.class) : null;
  }

  /**
   * Ends the deferred transaction the driver began (it has read nothing) and begins an immediate one, which takes
   * the write lock now, waiting for it up to the busy timeout. Busy past it, a deferred transaction is begun again,
   * as the driver expects one to roll back.
   */
  @Override
  public void beginWrites(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("COMMIT");
      try {
        statement.execute("BEGIN IMMEDIATE");
      } catch (SQLException e) {
        try {
          statement.execute("BEGIN");
        } catch (SQLException again) {
          e.addSuppressed(again);
        }
        throw e;
      }
    }
  }

  /** Yes: the write lock is the database's. */
  @Override
  public boolean writesOneAtATime() {
    return true;
  }

  /** No: a statement waits only for the file's write lock, which the busy timeout bounds. */
  @Override
  public boolean limitsStatements() {
    return false;
  }

  /** Never asked ({@link #limitsStatements()}). */
  @Override
  public void limitStatements(Connection connection, Duration timeout) {
    throw new UnsupportedOperationException("SQLite has no statement timeout");
  }

  /**
   * No: the database is a file written by this process's own driver, so a commit is never left in doubt by a lost
   * connection; should the driver report one all the same, the work runs again.
   */
  @Override
  public boolean knowsCommitStatus() {
    return false;
  }

  /** Never asked ({@link #knowsCommitStatus()}). */
  @Override
  public OptionalLong writingTransaction(Connection connection) {
    throw new UnsupportedOperationException("SQLite does not tell a transaction's commit status");
  }

  /** Never asked ({@link #knowsCommitStatus()}). */
  @Override
  public CommitStatus commitStatus(Connection connection, long transactionId) {
    throw new UnsupportedOperationException("SQLite does not tell a transaction's commit status");
  }

  /** No: SQLite has no {@code LATERAL}; a fork's shared events are joined to their segments and limited together. */
  @Override
  public boolean joinsLaterally() {
    return false;
  }

  /**
   * {@code INDEXED BY} the primary key's index ({@code sqlite_autoindex_<prefix>segments_1}, the first constraint of
   * the table): statistics taken while a file holds a few segments would plan a scan of every segment for each read
   * of a log.
   */
  @Override
  public String segmentsBySession(Tables tables) {
    return tables.segments() + " INDEXED BY sqlite_autoindex_" + tables.prefix() + "segments_1";
  }

  /** {@code INDEXED BY} the source index: without it a join from a search's hits scans the segments table. */
  @Override
  public String segmentsBySource(Tables tables, String alias) {
    return tables.segments() + " " + alias + " INDEXED BY " + tables.prefix() + "segments_source_idx";
  }

  /** {@code INDEXED BY} the primary key: with a tenant to match, SQLite would read the tenant's index instead. */
  @Override
  public String sessionsById(Tables tables, String alias) {
    return tables.sessions() + " " + alias + " INDEXED BY sqlite_autoindex_" + tables.prefix() + "sessions_1";
  }

  @Override
  public boolean chainsWrites() {
    return false;
  }

  /** None: appends take a short transaction of their own ({@link #beginOwnWrites()}), else the locked path. */
  @Override
  public Optional<String> appendInOneCall(Tables tables) {
    return Optional.empty();
  }

  /** None: appends take a short transaction of their own ({@link #beginOwnWrites()}), else the locked path. */
  @Override
  public Optional<String> appendFreshInOneCall(Tables tables) {
    return Optional.empty();
  }

  /** None: appends take a short transaction of their own ({@link #beginOwnWrites()}), else the locked path. */
  @Override
  public Optional<String> appendOneFreshInOneCall(Tables tables) {
    return Optional.empty();
  }

  /** {@code BEGIN IMMEDIATE}: the write lock at once, as {@link #beginWrites} takes it. */
  @Override
  public Optional<String> beginOwnWrites() {
    return Optional.of("BEGIN IMMEDIATE");
  }

  /** Microseconds since the epoch. */
  @Override
  public void bindInstant(PreparedStatement statement, int index, Instant instant) throws SQLException {
    statement.setLong(index, micros(instant));
  }

  @Override
  public Instant readInstant(ResultSet row, String column) throws SQLException {
    long micros = row.getLong(column);
    if (row.wasNull()) {
      return null;
    }
    return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000), Math.floorMod(micros, 1_000_000) * 1_000L);
  }

  private static long micros(Instant instant) {
    return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
  }

  /** {@code TEXT}, stored as bound: the text as written. */
  @Override
  public String jsonTextEquals(String column) {
    return column + " = ?";
  }

  @Override
  public String jsonParameter() {
    return "?";
  }

  @Override
  public String metadataParameter() {
    return "?";
  }

  @Override
  public Json readJson(ResultSet row, String column) throws SQLException {
    String text = row.getString(column);
    return text == null ? null : StoredJson.of(text);
  }

  /** Every entry of the bound object is an entry of the column's object ({@code json_each} of both). */
  @Override
  public String containsMetadata(String column) {
    return "NOT EXISTS (SELECT 1 FROM json_each(?) AS wanted WHERE NOT EXISTS (SELECT 1 FROM json_each(" + column
        + ") AS held WHERE held.key = wanted.key AND held.value = wanted.value))";
  }

  /** {@code ->>}, which takes a key that does not start with {@code $} as the key itself, not as a path. */
  @Override
  public String jsonTextField(String column) {
    return column + " ->> ?";
  }

  @Override
  public String isAnyOf(String column) {
    return column + " IN (SELECT value FROM json_each(?))";
  }

  /** {@code IN (keys)}: SQLite reads {@code keys} into a table of its own and looks each value up in the index. */
  @Override
  public String isAmong(String column, String keys) {
    return column + " IN (" + keys + ")";
  }

  /** A JSON array of strings. */
  @Override
  public String textList(Connection connection, Collection<String> values) {
    return writeJson(json -> {
      json.writeStartArray();
      for (String value : values) {
        json.writeString(value);
      }
      json.writeEndArray();
    });
  }

  /** One JSON array parameter of one array per event: id, type, run, agent, parent, payload text, microseconds. */
  @Override
  public String eventRows(String alias) {
    return "(SELECT j.value ->> 0 AS id, j.value ->> 1 AS type, j.value ->> 2 AS run_id, j.value ->> 3 AS agent_id,"
        + " j.value ->> 4 AS parent_id, j.value ->> 5 AS payload, j.value ->> 6 AS ts, j.key + 1 AS ordinality"
        + " FROM json_each(?) AS j) AS " + alias;
  }

  @Override
  public List<Object> eventRowsParameters(Connection connection, List<NewEvent> events, Instant now) {
    requireWithinStatementLimit(events);
    return List.of(writeJson(json -> {
      json.writeStartArray();
      for (NewEvent event : events) {
        json.writeStartArray();
        json.writeString(event.id());
        json.writeString(event.type());
        json.writeString(event.runId());
        json.writeString(event.agentId());
        json.writeString(event.parentId());
        json.writeString(event.payload().text());
        json.writeNumber(micros(event.timestamp() == null ? now : event.timestamp()));
        json.writeEndArray();
      }
      json.writeEndArray();
    }));
  }

  /** None: the store writes the search table, an FTS5 index, itself ({@link #indexStoredEvents}). */
  @Override
  public Optional<String> wordsColumn() {
    return Optional.empty();
  }

  /**
   * The words of the batch, one JSON array parameter, each joined to its event row by the events' key (session id,
   * seq: the batch's position after the first seq) for its rowid: one FTS5 insert per event, no call back into Java.
   * {@code CROSS JOIN} keeps the batch outer, each event found by its key; with a plain join SQLite's planner reads
   * the session's every event row and looks each up in the batch (measured: a 100-event batch 160 ms, not 3 ms).
   */
  @Override
  public Optional<String> indexStoredEvents(Tables tables) {
    return Optional.of("INSERT INTO " + tables.search() + " (rowid, words) SELECT e.rowid, w.value FROM json_each(?)"
        + " AS w CROSS JOIN " + tables.events() + " AS e ON e.session_id = ? AND e.seq = ? + w.key");
  }

  /** Never called: there is no {@link #wordsColumn()}. */
  @Override
  public String indexedWords(String text) {
    throw new UnsupportedOperationException("SQLite keeps the words of events in its search table");
  }

  /** The row's rowid among those the FTS5 search table matches (its table-valued form): its own index, by rowid. */
  @Override
  public String holdsWords(Tables tables, String alias) {
    return alias + ".rowid IN (SELECT rowid FROM " + tables.search() + "(?))";
  }

  /**
   * {@code "word" "prefix"*}: FTS5 phrases of one word each, all of which must match, read by the table's tokenizer,
   * which splits nothing a word holds (letters, digits and marks); a word holds no double quote.
   */
  @Override
  public String wordsQuery(List<SearchTerm> words) {
    return words.stream().map(word -> "\"" + word.words().get(0) + "\"" + (word.prefix() ? "*" : ""))
        .collect(Collectors.joining(" "));
  }

  /**
   * One more than the greatest write order of any run: every write of a run holds the database's write lock, so the
   * counter grows with each write, whichever process makes it (the runs table's {@code written_at} index finds the
   * greatest at once). SQLite's own clock has milliseconds only.
   */
  @Override
  public String writeOrder(Tables tables) {
    return "(SELECT coalesce(max(written_at), 0) + 1 FROM " + tables.runs() + ")";
  }

  @Override
  public String onConflictUpdate(String conflictTarget, String assignments) {
    return " ON CONFLICT (" + conflictTarget + ") DO UPDATE SET " + assignments;
  }

  @Override
  public String onConflictIgnore(String conflictTarget) {
    return " ON CONFLICT (" + conflictTarget + ") DO NOTHING";
  }

  /** Empty: a transaction that writes holds the database's write lock from its start ({@link #beginWrites}). */
  @Override
  public String lockForUpdate() {
    return "";
  }

  @Override
  public String lockForShare() {
    return "";
  }

  /** Empty: a deferred transaction in WAL mode reads one snapshot from its first read on. */
  @Override
  public String snapshotTransaction() {
    return "";
  }

  @Override
  public String lockSkippingLocked() {
    return "";
  }

  /** The table and column SQLite names in a unique violation's message (it has no constraint names). */
  @Override
  public String uniqueKeyName(Tables tables, UniqueKey key) {
    return switch (key) {
      case SESSION_ID -> tables.name("sessions") + ".id";
      case SESSION_NAME -> tables.name("sessions") + ".name";
    };
  }

  @Override
  public Instant earliestStorable() {
    return EARLIEST;
  }

  @Override
  public boolean isStorable(Instant instant) {
    return !instant.isBefore(EARLIEST) && !instant.isAfter(LATEST);
  }

  // Waking waiting reads of other instances

  /** No: the file's change counter tells a {@link SqliteChangeListener} of every other connection's commit. */
  @Override
  public boolean notifies() {
    return false;
  }

  /** The name of the listener's thread: {@code <schema>.<prefix>events}. */
  @Override
  public String channel(Tables tables) {
    return tables.schemaName() + "." + tables.prefix() + "events";
  }

  @Override
  public String notifyEach() {
    throw new UnsupportedOperationException("SQLite sends no notifications");
  }

  @Override
  public WakeUpListener listen(StoreSettings settings, Tables tables, SessionWaiters waiters) {
    return SqliteChangeListener.start(settings.notificationDataSource(), this, channel(tables), waiters,
        new SessionFingerprints(this, tables), settings.changePollInterval());
  }

  // Schema migration

  @Override
  public String migrationFolder() {
    return "dev/sessionstore/jdbc/sqlite/";
  }

  /**
   * Nothing more to take: the migration's transaction began writes ({@link #beginWrites}), so it holds the
   * database's write lock, which excludes every other migration and write until it ends. The wait for that lock is
   * the busy timeout's, past which the migration fails busy and is run again like any write.
   */
  @Override
  public void lockForMigration(Connection connection, Tables tables, Duration timeout) {
  }

  @Override
  public void createSchemaAndVersionTable(Connection connection, Tables tables) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE IF NOT EXISTS " + tables.schemaVersion() + " ("
          + "version INTEGER PRIMARY KEY, "
          + "description TEXT NOT NULL, "
          + "installed_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP) STRICT");
    }
  }

  @Override
  public boolean versionTableExists(Connection connection, Tables tables) throws SQLException {
    return sql.first(connection, "SELECT 1 FROM " + tables.quotedSchema() + ".sqlite_master WHERE type = 'table'"
        + " AND name = ?", row -> true, tables.schemaVersionTableName()).isPresent();
  }

  /**
   * sqlite-jdbc runs every statement of a script given to {@code executeUpdate} ({@code sqlite3_exec}), here with
   * {@link #WORDS_FUNCTION}, which version 5's script calls, registered on the connection for its duration (where
   * the connection unwraps to the driver's).
   */
  @Override
  public void runScript(Connection connection, String script) throws SQLException {
    SQLiteConnection physical = physical(connection);
    if (physical != null) {
      Function.create(physical, WORDS_FUNCTION, new IndexText(), 1, Function.FLAG_DETERMINISTIC);
    }
    try (Statement statement = connection.createStatement()) {
      statement.executeUpdate(script);
    } finally {
      if (physical != null) {
        Function.destroy(physical, WORDS_FUNCTION);
      }
    }
  }

  // Failures and limits

  /**
   * The batch travels as one JSON text, which SQLite takes up to {@code SQLITE_MAX_LENGTH}. Counts, per event, the
   * UTF-8 bytes of each element as JSON writes it (quoted, escapes at their longest), an upper bound of the text.
   */
  @Override
  public void requireWithinStatementLimit(List<NewEvent> events) {
    long bytes = 2;
    for (NewEvent event : events) {
      bytes += EVENT_FRAME_BYTES + elementBytes(event.id()) + elementBytes(event.type())
          + elementBytes(event.runId()) + elementBytes(event.agentId()) + elementBytes(event.parentId())
          + elementBytes(event.payload().text());
    }
    if (bytes > MAX_PARAMETER_BYTES) {
      throw new InvalidArgumentException("events", "the batch of " + events.size() + " events takes "
          + bytes / (1024 * 1024) + " MiB in one statement, more than SQLite's limit of 10^9 bytes for one value"
          + " allows (at most " + MAX_PARAMETER_BYTES / (1024 * 1024) + " MiB); append it in smaller batches");
    }
  }

  private static long elementBytes(String text) {
    if (text == null) {
      return NULL_ELEMENT_BYTES;
    }
    long bytes = 3; // quotes and separator
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        bytes += 2;
      } else if (c < 0x20) {
        bytes += 6;
      } else if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800 || Character.isSurrogate(c)) {
        bytes += 2;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }

  /**
   * SQLite's result codes (sqlite-jdbc gives no SQLState), extended where the driver reports them:
   * <ul>
   *   <li>{@code SQLITE_CONSTRAINT_UNIQUE} and {@code _PRIMARYKEY} a unique violation, naming the columns;
   *       {@code _NOTNULL}, {@code _CHECK} and {@code _DATATYPE} an invalid value; the rest of
   *       {@code SQLITE_CONSTRAINT} ({@code _FOREIGNKEY}, ...) an integrity violation;</li>
   *   <li>{@code SQLITE_MISMATCH} an invalid value; {@code SQLITE_TOOBIG} a limit exceeded;</li>
   *   <li>{@code SQLITE_BUSY} and {@code SQLITE_LOCKED} (another connection held the lock past the busy timeout, or a
   *       snapshot went stale) a transaction rollback the store runs again;</li>
   *   <li>{@code SQLITE_IOERR}, {@code SQLITE_FULL}, {@code SQLITE_NOMEM}, {@code SQLITE_PROTOCOL} and
   *       {@code SQLITE_INTERRUPT} transient;</li>
   *   <li>anything else ({@code SQLITE_ERROR} such as a missing table, {@code SQLITE_READONLY},
   *       {@code SQLITE_CANTOPEN}, {@code SQLITE_CORRUPT}, {@code SQLITE_NOTADB}, {@code SQLITE_PERM}, ...) a backend
   *       failure, and so is an error without a code; {@link Database} counts one on a closed connection as lost.</li>
   * </ul>
   */
  @Override
  public SqlFailure classify(SQLException error) {
    int extended = error instanceof SQLiteException sqlite ? sqlite.getResultCode().code : error.getErrorCode();
    int primary = extended & 0xff;
    return switch (primary) {
      case 19 -> constraintFailure(extended, error);
      case 20 -> SqlFailure.of(SqlFailure.Kind.INVALID_VALUE, null);
      case 18 -> SqlFailure.of(SqlFailure.Kind.LIMIT_EXCEEDED, null);
      case 5, 6 -> SqlFailure.of(SqlFailure.Kind.TRANSACTION_ROLLBACK, null);
      case 7, 9, 10, 13, 15 -> SqlFailure.of(SqlFailure.Kind.TRANSIENT, null);
      default -> SqlFailure.of(SqlFailure.Kind.BACKEND, null);
    };
  }

  private static SqlFailure constraintFailure(int extended, SQLException error) {
    if (extended == SQLiteErrorCode.SQLITE_CONSTRAINT_UNIQUE.code
        || extended == SQLiteErrorCode.SQLITE_CONSTRAINT_PRIMARYKEY.code) {
      return new SqlFailure(SqlFailure.Kind.UNIQUE_VIOLATION, null, constraint(error));
    }
    if (extended == SQLiteErrorCode.SQLITE_CONSTRAINT_NOTNULL.code
        || extended == SQLiteErrorCode.SQLITE_CONSTRAINT_CHECK.code
        || extended == SQLiteErrorCode.SQLITE_CONSTRAINT_DATATYPE.code) {
      return SqlFailure.of(SqlFailure.Kind.INVALID_VALUE, null);
    }
    return SqlFailure.of(SqlFailure.Kind.INTEGRITY_VIOLATION, null);
  }

  /** The columns a unique violation names ({@code session_store_sessions.name}), or {@code null}. */
  private static String constraint(SQLException error) {
    Matcher matcher = CONSTRAINT.matcher(String.valueOf(error.getMessage()));
    return matcher.find() ? matcher.group(1).trim() : null;
  }

  private interface JsonWriting {
    void write(JsonGenerator json) throws IOException;
  }

  private static String writeJson(JsonWriting writing) {
    StringWriter text = new StringWriter();
    try (JsonGenerator json = JSON.createGenerator(text)) {
      writing.write(json);
    } catch (IOException e) {
      throw new UncheckedIOException("writing JSON to a string failed", e);
    }
    return text.toString();
  }
}
