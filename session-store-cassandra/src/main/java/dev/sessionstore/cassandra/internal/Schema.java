package dev.sessionstore.cassandra.internal;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.QueryValidationException;
import dev.sessionstore.StoreFailureException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's keyspace and tables, created when missing and versioned in {@code schema_version}: a store refuses to
 * open on a schema newer than the one it knows, so an old client never writes a layout it does not understand. The
 * DDL below is also the documented DDL for operators who create the schema themselves
 * ({@code createSchema(false)} on the builder).
 */
public final class Schema {

  /** The layout this code reads and writes. */
  public static final int VERSION = 7;

  /** The name of the storage-attached index over event rows' {@code search_terms}: its presence enables search. */
  static final String SEARCH_INDEX = "session_data_search";

  /** The storage-attached index on sessions' expiries ({@code s_expires}), what a query by expiry reads a range of. */
  static final String EXPIRY_INDEX = "session_data_expiry";

  private static final Logger LOG = LoggerFactory.getLogger(Schema.class);
  private static final Duration DDL_TIMEOUT = Duration.ofSeconds(60);

  /** The keyspaces each driver session found ready: stores opened on one session check the schema once. */
  private static final Map<CqlSession, Set<String>> PREPARED = new WeakHashMap<>();

  /** The tables, in creation order; {@code %s} is the keyspace. */
  static final List<String> TABLES = List.of(
      """
      CREATE TABLE IF NOT EXISTS %s.schema_version (
        component text PRIMARY KEY,
        version int)""",
      // Everything one session owns, in one partition: the session record and the log's head in static columns,
      // events (kind 'e', key = seq zero-padded), event ids (kind 'i', key = id, seq), runs (kind 'r', key = id),
      // checkpoints (kind 'c', key = name, data), summaries (kind 's', key = toSeq zero-padded, content in payload),
      // tool calls (kind 't', key = call id: run_id, event_id = requesting event, type = tool name, payload =
      // arguments, status, result, deadline, created, updated), model-call audit rows (kind 'm', key = turn
      // zero-padded: seq = turn, type = model, payload = context, usage, created = recorded). The writer-fencing
      // claim is static (fence_token, fence_owner) and is never cleared, not even by a deletion. cut_seq (static) is
      // the seq through which retention cut the log's head (null: never cut): the log holds cut_seq + 1 to last_seq.
      // s_expires (static): the session's expiry in microseconds (null: never), under the storage-attached index
      // EXPIRY_DDL.
      // search_terms: an event row's words and word prefixes (SearchEntries), under the storage-attached index
      // SEARCH_DDL; written with the row, so it goes with the row.
      """
      CREATE TABLE IF NOT EXISTS %s.session_data (
        ns text,
        session_id text,
        kind text,
        key text,
        head timeuuid static,
        last_seq bigint static,
        s_name text static,
        s_tenant text static,
        s_agent text static,
        s_status text static,
        s_settings text static,
        s_metadata frozen<map<text, text>> static,
        s_fork_parent text static,
        s_fork_seq bigint static,
        s_created bigint static,
        s_updated bigint static,
        fence_token bigint static,
        fence_owner text static,
        cut_seq bigint static,
        s_expires bigint static,
        seq bigint,
        event_id text,
        type text,
        run_id text,
        agent_id text,
        parent_id text,
        payload text,
        ts bigint,
        status text,
        usage text,
        error text,
        created bigint,
        updated bigint,
        saved timeuuid,
        data blob,
        from_seq bigint,
        version int,
        result text,
        deadline bigint,
        search_terms set<text>,
        PRIMARY KEY ((ns, session_id), kind, key))""",
      // Which sessions a namespace has, spread over buckets: the listing's starting point, never its truth.
      """
      CREATE TABLE IF NOT EXISTS %s.session_index (
        ns text,
        bucket int,
        session_id text,
        PRIMARY KEY ((ns, bucket), session_id))""",
      // Session names, unique per namespace: claimed with a lightweight transaction before a session takes one.
      """
      CREATE TABLE IF NOT EXISTS %s.session_names (
        ns text,
        name text,
        session_id text,
        PRIMARY KEY ((ns, name)))""",
      // Store-wide checkpoints, one partition each: they belong to no session.
      """
      CREATE TABLE IF NOT EXISTS %s.global_checkpoints (
        ns text,
        name text,
        data blob,
        updated bigint,
        PRIMARY KEY ((ns, name)))""",
      // Tool-call deadlines by the hour they fall in: where a sweep finds what is due. A row is a hint, never the
      // truth: the sweeper expires a call only through the call's own conditional write on its partition.
      """
      CREATE TABLE IF NOT EXISTS %s.deadlines (
        ns text,
        hour bigint,
        due bigint,
        session_id text,
        call_id text,
        PRIMARY KEY ((ns, hour), due, session_id, call_id))""",
      // The hours of a namespace that may hold deadline rows: where a sweep starts.
      """
      CREATE TABLE IF NOT EXISTS %s.deadline_hours (
        ns text,
        hour bigint,
        PRIMARY KEY ((ns), hour))""",
      // The names of a namespace's global checkpoints: where listing them starts, never their truth.
      """
      CREATE TABLE IF NOT EXISTS %s.global_checkpoint_names (
        ns text,
        name text,
        PRIMARY KEY ((ns), name))""",
      // When a namespace's retention schedule last ran (micros of the store clock): claimed with a lightweight
      // transaction by the instance that runs it, so the schedule is the cluster's, not one process's.
      """
      CREATE TABLE IF NOT EXISTS %s.retention_sweeps (
        ns text,
        swept bigint,
        PRIMARY KEY ((ns)))""");

  /**
   * The storage-attached index (Cassandra 5.0 or later) search reads event rows through; {@code %s} is the keyspace.
   * Created after the tables, and tolerated when the cluster cannot create it (Cassandra 4.1): the store then opens
   * without {@link dev.sessionstore.Capability#SEARCH}.
   */
  static final String SEARCH_DDL = "CREATE CUSTOM INDEX IF NOT EXISTS " + SEARCH_INDEX
      + " ON %s.session_data (search_terms) USING 'StorageAttachedIndex'";

  /** What takes a keyspace of version {@code i + 1} to version {@code i + 2}; {@code %s} is the keyspace. */
  static final List<List<String>> MIGRATIONS = List.of(
      List.of("ALTER TABLE %s.session_data ADD data blob", TABLES.get(4)),
      List.of("ALTER TABLE %s.session_data ADD from_seq bigint", "ALTER TABLE %s.session_data ADD version int"),
      List.of("ALTER TABLE %s.session_data ADD result text", "ALTER TABLE %s.session_data ADD deadline bigint",
          "ALTER TABLE %s.session_data ADD fence_token bigint static",
          "ALTER TABLE %s.session_data ADD fence_owner text static", TABLES.get(5), TABLES.get(6),
          TABLES.get(7)),
      List.of("ALTER TABLE %s.session_data ADD cut_seq bigint static", TABLES.get(8)),
      List.of("ALTER TABLE %s.session_data ADD search_terms set<text>"),
      List.of("ALTER TABLE %s.session_data ADD s_expires bigint static"));

  /**
   * The index a query by expiry ({@link dev.sessionstore.SessionQuery#expiresBefore}) reads a range of: it holds
   * the static rows of the sessions that have an expiry. Created after the tables, and tolerated when the cluster
   * cannot create it (Cassandra 4.1): the query then reads the namespace's sessions as every other listing does.
   */
  static final String EXPIRY_DDL = "CREATE CUSTOM INDEX IF NOT EXISTS " + EXPIRY_INDEX
      + " ON %s.session_data (s_expires) USING 'StorageAttachedIndex'";

  private Schema() {
  }

  /**
   * Creates the keyspace and tables when {@code create}, then checks the stored version.
   *
   * @throws StoreFailureException if the schema is missing (and not to be created) or newer than {@link #VERSION}
   */
  static void prepare(CqlSession session, String keyspace, String replication, boolean create) {
    synchronized (PREPARED) {
      if (PREPARED.computeIfAbsent(session, any -> new HashSet<>()).contains(keyspace)) {
        return;
      }
    }
    if (create) {
      run(session, "CREATE KEYSPACE IF NOT EXISTS " + keyspace + " WITH replication = " + replication);
      for (String table : TABLES) {
        run(session, table.formatted(keyspace));
      }
      run(session, "INSERT INTO " + keyspace + ".schema_version (component, version) VALUES ('session-store', "
          + VERSION + ") IF NOT EXISTS");
    }
    Row row;
    try {
      row = session.execute("SELECT version FROM " + keyspace + ".schema_version WHERE component = 'session-store'")
          .one();
    } catch (RuntimeException e) {
      throw new StoreFailureException("the session-store schema in keyspace " + keyspace + " is missing", false, e);
    }
    if (row == null) {
      throw new StoreFailureException("the session-store schema in keyspace " + keyspace + " has no version",
          false, null);
    }
    int stored = row.getInt(0);
    if (stored > VERSION) {
      throw new StoreFailureException("the session-store schema in keyspace " + keyspace + " is version "
          + stored + ", newer than this store's " + VERSION, false, null);
    }
    if (stored < VERSION) {
      if (!create) {
        throw new StoreFailureException("the session-store schema in keyspace " + keyspace + " is version "
            + stored + ", older than this store's " + VERSION + "; open a store with createSchema(true) once, or "
            + "apply the migrations of the adapter's Schema class", false, null);
      }
      migrate(session, keyspace, stored);
    }
    if (create) {
      createSearchIndex(session, keyspace);
      createExpiryIndex(session, keyspace);
    }
    synchronized (PREPARED) {
      PREPARED.get(session).add(keyspace);
    }
  }

  /** Applies the migrations after {@code from}, each step once (a step repeated by a racing store changes nothing). */
  private static void migrate(CqlSession session, String keyspace, int from) {
    for (int version = from + 1; version <= VERSION; version++) {
      for (String statement : MIGRATIONS.get(version - 2)) {
        try {
          run(session, statement.formatted(keyspace));
        } catch (InvalidQueryException e) {
          if (!String.valueOf(e.getMessage()).contains("already exist")) {
            throw e;
          }
        }
      }
      session.execute("UPDATE " + keyspace + ".schema_version SET version = " + version
          + " WHERE component = 'session-store' IF version = " + (version - 1));
      LOG.info("session-store schema in keyspace {} migrated to version {}", keyspace, version);
    }
  }

  /**
   * Creates the search index unless it exists. A cluster without storage-attached indexes (before Cassandra 5.0)
   * refuses it: logged, and the store opens without search.
   */
  private static void createSearchIndex(CqlSession session, String keyspace) {
    try {
      run(session, SEARCH_DDL.formatted(keyspace));
    } catch (QueryValidationException e) {
      LOG.warn("session-store: keyspace {} has no search index (storage-attached indexes need Cassandra 5.0): {}",
          keyspace, e.getMessage());
    }
  }

  /** Creates the expiry index unless it exists; a cluster without storage-attached indexes refuses it: logged. */
  private static void createExpiryIndex(CqlSession session, String keyspace) {
    try {
      run(session, EXPIRY_DDL.formatted(keyspace));
    } catch (QueryValidationException e) {
      LOG.warn("session-store: keyspace {} has no expiry index (storage-attached indexes need Cassandra 5.0); a query"
          + " by expiry reads every session of the namespace: {}", keyspace, e.getMessage());
    }
  }

  /** Whether {@code keyspace} holds the search index: the store declares search when it does. */
  static boolean searchable(CqlSession session, String keyspace) {
    return hasIndex(session, keyspace, SEARCH_INDEX);
  }

  /** Whether {@code keyspace} holds the expiry index: a query by expiry reads it when it does. */
  static boolean expiryIndexed(CqlSession session, String keyspace) {
    return hasIndex(session, keyspace, EXPIRY_INDEX);
  }

  private static boolean hasIndex(CqlSession session, String keyspace, String index) {
    return session.execute(SimpleStatement.newInstance("SELECT index_name FROM system_schema.indexes WHERE "
        + "keyspace_name = ? AND table_name = 'session_data' AND index_name = ?", keyspace, index)).one() != null;
  }

  private static void run(CqlSession session, String cql) {
    LOG.debug("schema: {}", cql);
    session.execute(SimpleStatement.newInstance(cql).setTimeout(DDL_TIMEOUT));
  }
}
