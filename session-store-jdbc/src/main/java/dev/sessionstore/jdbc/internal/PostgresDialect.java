package dev.sessionstore.jdbc.internal;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SearchTerm;
import dev.sessionstore.spi.SearchText;
import dev.sessionstore.spi.StoredJson;
import java.io.IOException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * PostgreSQL 12 or later through pgjdbc: {@code json} columns for documents (the text as written) and {@code jsonb}
 * for session metadata, lists and batches bound as arrays ({@code = ANY}, {@code unnest … WITH ORDINALITY}),
 * {@code INSERT … ON CONFLICT}, {@code FOR NO KEY UPDATE} locks of a session's row, writes chained in one statement
 * by data-modifying {@code WITH} clauses, and {@code LISTEN/NOTIFY} wake-ups.
 */
final class PostgresDialect implements Dialect {


  /**
   * The earliest instant stored and read back exactly: {@code timestamptz} starts in 4714 BC, but pgjdbc misreads
   * some dates before year 1 (BC leap days).
   */
  private static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
  /** PostgreSQL truncates identifiers, channel names included, to 63 bytes. */
  private static final int MAX_IDENTIFIER_LENGTH = 63;
  /**
   * The most bytes one append statement's parameters may take: PostgreSQL's limit for one message (and one value),
   * 1 GB less one byte, less 1 MiB for the statement's text, the other parameters and the message's framing.
   */
  private static final long MAX_STATEMENT_BYTES = (1L << 30) - 1 - (1L << 20);
  /** A timestamp element of the array text, {@code "2030-01-01 00:00:00.000000+00",}, with room for long years. */
  private static final long TIMESTAMP_ELEMENT_BYTES = 40;
  /** {@code NULL,} */
  private static final long NULL_ELEMENT_BYTES = 5;
  /** The last microsecond {@code timestamptz} holds. */
  private static final Instant LATEST = Instant.parse("+294276-12-31T23:59:59.999999Z");

  /**
   * One notification per wake key of the array, in one statement. Parameters: channel, wake keys. Its transaction
   * commits without waiting for the WAL flush ({@code synchronous_commit} off for that transaction only): it writes
   * nothing that must survive a crash, and appends need not share their flushes with it.
   */
  private static final String NOTIFY_EACH = """
      SELECT pg_notify(?, key) FROM unnest(?::text[]) AS key
      WHERE set_config('synchronous_commit', 'off', true) IS NOT NULL""";

  /** Runs this dialect's own statements (migration, schema checks). */
  private final Sql sql = new Sql(this);

  @Override
  public String tablesSchema(String configured) {
    return configured;
  }

  /** Nothing: every setting the store relies on is the server's default or set per transaction. */
  @Override
  public void prepareConnection(Connection connection) {
  }

  /** Nothing: row locks are taken by the statements that need them, and a deadlock is detected and re-run. */
  @Override
  public void beginWrites(Connection connection) {
  }

  /** No: writers of different sessions proceed in parallel, on row locks. */
  @Override
  public boolean writesOneAtATime() {
    return false;
  }

  /** Yes: {@code statement_timeout}, which cancels a statement with {@code 57014}. */
  @Override
  public boolean limitsStatements() {
    return true;
  }

  @Override
  public void limitStatements(Connection connection, Duration timeout) throws SQLException {
    sql.first(connection, "SELECT set_config('statement_timeout', ?, false)", row -> true,
        timeout.toMillis() + "ms");
  }

  /**
   * Yes: {@code txid_current_if_assigned()} before {@code COMMIT}, {@code txid_status(id)} after (PostgreSQL 10 and
   * later; a 64-bit id that never wraps).
   */
  @Override
  public boolean knowsCommitStatus() {
    return true;
  }

  @Override
  public OptionalLong writingTransaction(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
         ResultSet row = statement.executeQuery("SELECT txid_current_if_assigned()")) {
      row.next();
      long id = row.getLong(1);
      return row.wasNull() ? OptionalLong.empty() : OptionalLong.of(id);
    }
  }

  @Override
  public CommitStatus commitStatus(Connection connection, long transactionId) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement("SELECT txid_status(?)")) {
      statement.setLong(1, transactionId);
      try (ResultSet row = statement.executeQuery()) {
        row.next();
        String status = row.getString(1);
        if (status == null) {
          return CommitStatus.FORGOTTEN;
        }
        return switch (status) {
          case "committed" -> CommitStatus.COMMITTED;
          case "aborted" -> CommitStatus.ABORTED;
          default -> CommitStatus.IN_PROGRESS;
        };
      }
    }
  }

  @Override
  public boolean chainsWrites() {
    return true;
  }

  /** The table itself: PostgreSQL's statistics follow the table (autovacuum analyzes it as it grows). */
  @Override
  public String segmentsBySession(Tables tables) {
    return tables.segments();
  }

  /** The table: the planner reads it by its source index. */
  @Override
  public String segmentsBySource(Tables tables, String alias) {
    return tables.segments() + " " + alias;
  }

  /** The table: the planner reads it by its primary key. */
  @Override
  public String sessionsById(Tables tables, String alias) {
    return tables.sessions() + " " + alias;
  }

  @Override
  public boolean joinsLaterally() {
    return true;
  }

  /** The schema script's {@code append_events} function (PL/pgSQL). */
  @Override
  public Optional<String> appendInOneCall(Tables tables) {
    return Optional.of("SELECT appended, last_seq, " + EventRows.COLUMNS + " FROM " + tables.appendEventsFunction()
        + "(?, ?::bigint, ?, ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[]::json[],"
        + " ?::timestamptz[], ?::text[])");
  }

  /**
   * The schema's {@code append_fresh} function (PL/pgSQL, schema version 4): the common case of
   * {@code append_events} in a call that returns one value instead of a set of rows, and lets the unique key find a
   * stored id as it inserts, in a block that catches the violation and undoes the call's writes, instead of inserting
   * with a conflict clause or looking each id up (pgbench, one client, 3 s runs: against {@code append_events}, one
   * event 0.299 ms against 0.332 ms and 100 events 1.05 ms against 1.38 ms; against a lookup per id, 100 events
   * 0.79-0.80 ms against 0.92-0.96 ms).
   */
  @Override
  public Optional<String> appendFreshInOneCall(Tables tables) {
    return Optional.of("SELECT " + tables.appendFreshFunction() + "(?, ?::bigint, ?, ?::text[], ?::text[], ?::text[],"
        + " ?::text[], ?::text[], ?::text[]::json[], ?::timestamptz[], ?::text[])");
  }

  /**
   * The schema's {@code append_fresh_one} function (schema version 4): {@code append_fresh} for one event, its
   * columns bound as scalars rather than arrays of one (pgbench, one client, 3 s runs in turn: 0.20-0.25 ms against
   * 0.22-0.28 ms for {@code append_fresh}; client side, no array to build and encode). Since schema version 8 it
   * inserts with the id key's conflict clause and moves the last seq back when the id is stored, instead of catching
   * the unique violation: one transaction id per append, no subtransaction.
   */
  @Override
  public Optional<String> appendOneFreshInOneCall(Tables tables) {
    return Optional.of("SELECT " + tables.appendFreshOneFunction() + "(?, ?::bigint, ?, ?, ?, ?, ?, ?, ?::json, ?, ?)");
  }

  /** None: appends take the one call ({@link #appendInOneCall}). */
  @Override
  public Optional<String> beginOwnWrites() {
    return Optional.empty();
  }

  /**
   * As {@code timestamptz}, through the JDBC 4.2 {@link OffsetDateTime} mapping, truncated to the microsecond as the
   * API truncates every instant it reports: the driver would round the nanoseconds instead, and a clock's instant
   * bound as is could be stored a microsecond later than the event or record the call returns.
   */
  @Override
  public void bindInstant(PreparedStatement statement, int index, Instant instant) throws SQLException {
    statement.setObject(index, instant.truncatedTo(ChronoUnit.MICROS).atOffset(ZoneOffset.UTC));
  }

  @Override
  public Instant readInstant(ResultSet row, String column) throws SQLException {
    OffsetDateTime value = row.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }

  @Override
  public String jsonTextEquals(String column) {
    return column + "::text = ?";
  }

  @Override
  public String jsonParameter() {
    return "?::json";
  }

  @Override
  public String metadataParameter() {
    return "?::jsonb";
  }

  /** The column's text is the document as written: {@code json} keeps it verbatim. */
  @Override
  public Json readJson(ResultSet row, String column) throws SQLException {
    String text = row.getString(column);
    return text == null ? null : StoredJson.of(text);
  }

  /** {@code jsonb} containment, which the metadata column's GIN index serves. */
  @Override
  public String containsMetadata(String column) {
    return column + " @> " + metadataParameter();
  }

  /**
   * {@code ->>}, the operator of the resumable-sessions index predicate. The planner matches that predicate with the
   * parameters' values (a custom plan), which it keeps where the index pays.
   */
  @Override
  public String jsonTextField(String column) {
    return column + " ->> ?";
  }

  @Override
  public String isAnyOf(String column) {
    return column + " = ANY(?)";
  }

  /**
   * An array built from {@code keys}: the planner takes it for about ten values and reads {@code column}'s index for
   * each, where {@code IN (keys)} would be planned as a join on its row estimate.
   */
  @Override
  public String isAmong(String column, String keys) {
    return column + " = ANY(ARRAY(" + keys + "))";
  }

  /** A {@code text[]} array. */
  @Override
  public Array textList(Connection connection, Collection<String> values) throws SQLException {
    return connection.createArrayOf("text", values.toArray(new String[0]));
  }

  /** One array per column, zipped by {@code unnest … WITH ORDINALITY}. */
  @Override
  public String eventRows(String alias) {
    return "unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[]::json[], ?::timestamptz[],"
        + " ?::text[]) WITH ORDINALITY AS " + alias
        + "(id, type, run_id, agent_id, parent_id, payload, ts, words, ordinality)";
  }

  @Override
  public List<Object> eventRowsParameters(Connection connection, List<NewEvent> events, Instant now)
      throws SQLException {
    requireWithinStatementLimit(events);
    int size = events.size();
    String[] ids = new String[size];
    String[] types = new String[size];
    String[] runIds = new String[size];
    String[] agentIds = new String[size];
    String[] parentIds = new String[size];
    String[] payloads = new String[size];
    String[] timestamps = new String[size];
    String[] words = new String[size];
    String stampedNow = null; // the literal of now, made once for every event the store stamps
    for (int i = 0; i < size; i++) {
      NewEvent event = events.get(i);
      ids[i] = event.id();
      types[i] = event.type();
      runIds[i] = event.runId();
      agentIds[i] = event.agentId();
      parentIds[i] = event.parentId();
      payloads[i] = event.payload().text();
      words[i] = SearchText.indexText(event.payload());
      if (event.timestamp() != null) {
        timestamps[i] = timestampLiteral(event.timestamp());
      } else {
        if (stampedNow == null) {
          stampedNow = timestampLiteral(now);
        }
        timestamps[i] = stampedNow;
      }
    }
    return Arrays.asList(connection.createArrayOf("text", ids), connection.createArrayOf("text", types),
        textsOrNull(connection, runIds), textsOrNull(connection, agentIds), textsOrNull(connection, parentIds),
        connection.createArrayOf("text", payloads), connection.createArrayOf("timestamptz", timestamps),
        connection.createArrayOf("text", words));
  }

  /**
   * {@code values} as a {@code text[]}, or null when every value is null: {@code unnest} pads a null array with nulls
   * as it pads a shorter one, and a null costs nothing to encode or parse (a column most batches leave empty, such as
   * the run id, is no array of nulls as long as the batch).
   */
  private static Array textsOrNull(Connection connection, String[] values) throws SQLException {
    for (String value : values) {
      if (value != null) {
        return connection.createArrayOf("text", values);
      }
    }
    return null;
  }

  /** {@code words}, a {@code tsvector} under a GIN index (schema version 5). */
  @Override
  public Optional<String> wordsColumn() {
    return Optional.of("words");
  }

  /** None: the words are a column of the events table, {@link #wordsColumn()}. */
  @Override
  public Optional<String> indexStoredEvents(Tables tables) {
    return Optional.empty();
  }

  /**
   * The words as the lexemes of a {@code tsvector} without positions, by {@code array_to_tsvector}: PostgreSQL's
   * parser, dictionaries and stemmer never read them (words hold only letters, digits and marks, never a space).
   */
  @Override
  public String indexedWords(String text) {
    return "array_to_tsvector(string_to_array(" + text + ", ' '))";
  }

  /** {@code @@} a {@code tsquery}, which the GIN index of the column answers. */
  @Override
  public String holdsWords(Tables tables, String alias) {
    return alias + ".words @@ ?::tsquery";
  }

  /**
   * {@code 'word' & 'prefix':*}: a text cast to {@code tsquery} keeps each quoted lexeme as written (no
   * configuration, no stemming); a word holds no quote nor backslash.
   */
  @Override
  public String wordsQuery(List<SearchTerm> words) {
    return words.stream().map(word -> "'" + word.words().get(0) + "'" + (word.prefix() ? ":*" : ""))
        .collect(Collectors.joining(" & "));
  }

  /** {@code clock_timestamp()}: unlike {@code now()}, it advances within a transaction. */
  @Override
  public String writeOrder(Tables tables) {
    return "clock_timestamp()";
  }

  @Override
  public String onConflictUpdate(String conflictTarget, String assignments) {
    return " ON CONFLICT (" + conflictTarget + ") DO UPDATE SET " + assignments;
  }

  @Override
  public String onConflictIgnore(String conflictTarget) {
    return " ON CONFLICT (" + conflictTarget + ") DO NOTHING";
  }

  /** {@code FOR NO KEY UPDATE}: foreign-key checks of rows that reference the locked one proceed. */
  @Override
  public String lockForUpdate() {
    return " FOR NO KEY UPDATE";
  }

  @Override
  public String lockForShare() {
    return " FOR SHARE";
  }

  @Override
  public String snapshotTransaction() {
    return "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY";
  }

  @Override
  public String lockSkippingLocked() {
    return " FOR UPDATE SKIP LOCKED";
  }

  /** The names the schema script gives its constraints. */
  @Override
  public String uniqueKeyName(Tables tables, UniqueKey key) {
    return switch (key) {
      case SESSION_ID -> tables.name("sessions_pkey");
      case SESSION_NAME -> tables.name("sessions_name_key");
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

  /**
   * PostgreSQL's own text form in UTC ({@code 2030-01-01 00:00:00.000000+00}), which it reads exactly for every
   * storable instant, five-digit years included; arithmetic on intervals would round far from 1970.
   */
  private static String timestampLiteral(Instant instant) {
    LocalDateTime utc = LocalDateTime.ofEpochSecond(instant.getEpochSecond(), instant.getNano(), ZoneOffset.UTC);
    StringBuilder text = new StringBuilder(32);
    digits(text, utc.getYear(), 4).append('-');
    digits(text, utc.getMonthValue(), 2).append('-');
    digits(text, utc.getDayOfMonth(), 2).append(' ');
    digits(text, utc.getHour(), 2).append(':');
    digits(text, utc.getMinute(), 2).append(':');
    digits(text, utc.getSecond(), 2).append('.');
    return digits(text, utc.getNano() / 1_000, 6).append("+00").toString();
  }

  /** Appends {@code value} (not negative) in decimal, zero-padded to at least {@code width} digits. */
  private static StringBuilder digits(StringBuilder text, int value, int width) {
    String decimal = Integer.toString(value);
    for (int pad = width - decimal.length(); pad > 0; pad--) {
      text.append('0');
    }
    return text.append(decimal);
  }

  // Waking waiting reads of other instances

  @Override
  public boolean notifies() {
    return true;
  }

  /**
   * {@code session_store.<schema>.<prefix>events} when it fits in an identifier (PostgreSQL truncates channel names
   * to 63 bytes), else {@code session_store.} and a digest of schema and prefix.
   */
  @Override
  public String channel(Tables tables) {
    String readable = "session_store." + tables.schemaName() + "." + tables.prefix() + "events";
    if (readable.length() <= MAX_IDENTIFIER_LENGTH) {
      return readable;
    }
    return "session_store." + HexFormat.of().formatHex(
        Digests.sha256(tables.schemaName() + "." + tables.prefix()), 0, 16);
  }

  @Override
  public String notifyEach() {
    return NOTIFY_EACH;
  }

  @Override
  public WakeUpListener listen(StoreSettings settings, Tables tables, SessionWaiters waiters) {
    return PostgresNotificationListener.start(settings.notificationDataSource(), channel(tables), waiters,
        settings.keepAliveInterval(), settings.waitPollInterval());
  }

  // Schema migration

  @Override
  public String migrationFolder() {
    return "dev/sessionstore/jdbc/postgresql/";
  }

  /**
   * {@code pg_advisory_xact_lock} on a key derived from schema and prefix, under {@code lock_timeout} set for the
   * transaction; a timeout fails with {@code 55P03} (lock not available).
   */
  @Override
  public void lockForMigration(Connection connection, Tables tables, Duration timeout) throws SQLException {
    sql.first(connection, "SELECT set_config('lock_timeout', ?, true)", row -> true, timeout.toMillis() + "ms");
    // The migration's own waits and DDL are bounded by the lock timeout, not by a statement timeout of the store.
    sql.first(connection, "SELECT set_config('statement_timeout', '0', true)", row -> true);
    sql.first(connection, "SELECT pg_advisory_xact_lock(?)", row -> true, migrationLockKey(tables));
  }

  /** The first 8 bytes of a digest of schema and prefix: the advisory lock key of their migrations. */
  private static long migrationLockKey(Tables tables) {
    byte[] digest = Digests.sha256("session-store migration " + tables.schemaName() + "." + tables.prefix());
    long key = 0;
    for (int i = 0; i < Long.BYTES; i++) {
      key = (key << 8) | (digest[i] & 0xff);
    }
    return key;
  }

  /**
   * The schema is looked up first, so that a role without the {@code CREATE} privilege on the database can migrate
   * the tables of a schema that exists.
   */
  @Override
  public void createSchemaAndVersionTable(Connection connection, Tables tables) throws SQLException {
    boolean schemaExists = sql.first(connection,
        "SELECT 1 FROM information_schema.schemata WHERE schema_name = ?", row -> true, tables.schemaName())
        .isPresent();
    try (Statement statement = connection.createStatement()) {
      if (!schemaExists) {
        statement.execute("CREATE SCHEMA IF NOT EXISTS " + tables.quotedSchema());
      }
      statement.execute("CREATE TABLE IF NOT EXISTS " + tables.schemaVersion() + " ("
          + "version integer PRIMARY KEY, "
          + "description text NOT NULL, "
          + "installed_at timestamptz NOT NULL DEFAULT now())");
    }
  }

  @Override
  public boolean versionTableExists(Connection connection, Tables tables) throws SQLException {
    return sql.first(connection,
        "SELECT 1 FROM information_schema.tables WHERE table_schema = ? AND table_name = ?", row -> true,
        tables.schemaName(), tables.schemaVersionTableName()).isPresent();
  }

  /** The simple query protocol runs a script of several statements as one. */
  @Override
  public void runScript(Connection connection, String script) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(script);
    }
  }

  // Failures and limits

  /**
   * The append statements bind the batch as seven array parameters, sent in one message; PostgreSQL refuses a
   * message of 1 GB or more (and a single value that large), closing the connection. Counts, per event and array,
   * the UTF-8 bytes of the element as pgjdbc's array text writes it (quoted, {@code "} and {@code \} escaped, a
   * separator), an upper bound of what it sends.
   */
  @Override
  public void requireWithinStatementLimit(List<NewEvent> events) {
    if (upperBoundBytes(events) <= MAX_STATEMENT_BYTES) {
      return; // far from the limit: no need to count each character
    }
    long bytes = 0;
    for (NewEvent event : events) {
      bytes += TIMESTAMP_ELEMENT_BYTES + elementBytes(event.id()) + elementBytes(event.type())
          + elementBytes(event.runId()) + elementBytes(event.agentId()) + elementBytes(event.parentId())
          + elementBytes(event.payload().text());
    }
    if (bytes > MAX_STATEMENT_BYTES) {
      throw new InvalidArgumentException("events", "the batch of " + events.size() + " events takes "
          + bytes / (1024 * 1024) + " MiB in one statement, more than PostgreSQL's limit of 1 GB for one message or"
          + " value allows (at most " + MAX_STATEMENT_BYTES / (1024 * 1024) + " MiB); append it in smaller batches");
    }
  }

  /**
   * At least what {@link #elementBytes} counts for the batch, from the texts' lengths alone: no char takes more than
   * three bytes in the array text (a surrogate pair four, two per char; a quote or backslash two).
   */
  private static long upperBoundBytes(List<NewEvent> events) {
    long bytes = 0;
    for (NewEvent event : events) {
      bytes += TIMESTAMP_ELEMENT_BYTES + elementBytesAtMost(event.id()) + elementBytesAtMost(event.type())
          + elementBytesAtMost(event.runId()) + elementBytesAtMost(event.agentId())
          + elementBytesAtMost(event.parentId()) + elementBytesAtMost(event.payload().text());
    }
    return bytes;
  }

  private static long elementBytesAtMost(String text) {
    return text == null ? NULL_ELEMENT_BYTES : 3 + 3L * text.length();
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
   * The SQLState table (PostgreSQL's error codes, appendix A of its manual), by class:
   * <ul>
   *   <li>{@code 23505} (unique violation, with its constraint) a unique violation; {@code 23502} (not null) and
   *       {@code 23514} (check) an invalid value; the rest of class {@code 23} ({@code 23503} foreign key,
   *       {@code 23P01} exclusion) an integrity violation;</li>
   *   <li>class {@code 22} (data exception: out of range, invalid text representation, untranslatable character) an
   *       invalid value;</li>
   *   <li>class {@code 54} (program limit exceeded: a value or statement past 1 GB, too many parameters) a limit
   *       exceeded;</li>
   *   <li>{@code 40001} and {@code 40P01} (serialization failure, deadlock) a transaction rollback the store runs
   *       again;</li>
   *   <li>class {@code 08} (connection exception), {@code 57P01}, {@code 57P02}, {@code 57P03}, {@code 57P05}
   *       (backend terminated or shutting down, crash shutdown, cannot connect now, idle session timeout) and
   *       {@code 25P03} (idle in transaction timeout, which closes the connection) a lost connection;</li>
   *   <li>{@code 57014} (statement timeout or cancel), {@code 55P03} (lock timeout), class {@code 53} (too many
   *       connections, out of memory or disk), {@code 25006} (read-only transaction: a standby, during failover)
   *       and {@code 58030} (I/O error) transient;</li>
   *   <li>anything else (class {@code 42} syntax or access rule such as {@code 42501} insufficient privilege or
   *       {@code 42P01} undefined table, {@code 28} authentication, {@code 3D000} no such database, {@code XX}
   *       internal error, ...) a backend failure.</li>
   * </ul>
   * An error without a SQLState is a lost connection when it says so by its type (a pool's transient connection
   * failure, pgjdbc's I/O error) and a backend failure otherwise; {@link Database} also counts one on a closed
   * connection as lost.
   */
  @Override
  public SqlFailure classify(SQLException error) {
    String state = error.getSQLState();
    if (state == null) {
      return SqlFailure.of(isConnectionError(error) ? SqlFailure.Kind.CONNECTION : SqlFailure.Kind.BACKEND, null);
    }
    return switch (state) {
      case "23505" -> new SqlFailure(SqlFailure.Kind.UNIQUE_VIOLATION, state, constraint(error));
      case "23502", "23514" -> SqlFailure.of(SqlFailure.Kind.INVALID_VALUE, state);
      case "40001", "40P01" -> SqlFailure.of(SqlFailure.Kind.TRANSACTION_ROLLBACK, state);
      case "57P01", "57P02", "57P03", "57P05", "25P03" -> SqlFailure.of(SqlFailure.Kind.CONNECTION, state);
      case "57014", "55P03", "25006", "58030" -> SqlFailure.of(SqlFailure.Kind.TRANSIENT, state);
      default -> SqlFailure.of(kindOfClass(state.substring(0, 2)), state);
    };
  }

  private static SqlFailure.Kind kindOfClass(String sqlStateClass) {
    return switch (sqlStateClass) {
      case "23" -> SqlFailure.Kind.INTEGRITY_VIOLATION;
      case "22" -> SqlFailure.Kind.INVALID_VALUE;
      case "54" -> SqlFailure.Kind.LIMIT_EXCEEDED;
      case "08" -> SqlFailure.Kind.CONNECTION;
      case "53" -> SqlFailure.Kind.TRANSIENT;
      default -> SqlFailure.Kind.BACKEND;
    };
  }

  /** The server's message without pgjdbc's severity prefix ({@code FATAL: }), or the driver's own message. */
  @Override
  public String message(SQLException error) {
    if (error instanceof PSQLException psql && psql.getServerErrorMessage() != null
        && psql.getServerErrorMessage().getMessage() != null) {
      return psql.getServerErrorMessage().getMessage();
    }
    return String.valueOf(error.getMessage());
  }

  private static boolean isConnectionError(SQLException error) {
    return error instanceof SQLTransientConnectionException || error instanceof SQLRecoverableException
        || error instanceof PSQLException && error.getCause() instanceof IOException;
  }

  private static String constraint(SQLException error) {
    if (error instanceof PSQLException psql) {
      ServerErrorMessage message = psql.getServerErrorMessage();
      return message == null ? null : message.getConstraint();
    }
    return null;
  }
}
