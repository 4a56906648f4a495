package dev.sessionstore.jdbc;

import dev.sessionstore.Capability;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.OutcomeUnknownException;
import dev.sessionstore.SessionStore;
import dev.sessionstore.StoreFailureException;
import dev.sessionstore.jdbc.internal.DriverLibrary;
import dev.sessionstore.jdbc.internal.FirstConnection;
import dev.sessionstore.jdbc.internal.JdbcStore;
import dev.sessionstore.jdbc.internal.OwnPool;
import dev.sessionstore.jdbc.internal.StoreSettings;
import dev.sessionstore.spi.ForwardingSessionStore;
import dev.sessionstore.spi.Interception;
import dev.sessionstore.spi.RetentionRules;
import dev.sessionstore.spi.ValidatingSessionStore;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * The {@link SessionStore} on a SQL database through JDBC: every guarantee of the session-store contract, including
 * waiting reads woken across processes and tool-call deadlines kept in the database and swept by any instance. The
 * database is told by the data source's connections: PostgreSQL 12 or later (waiting reads are woken by
 * {@code LISTEN/NOTIFY}) or a SQLite 3.38+ file through sqlite-jdbc, each with every {@link Capability}. Thread-safe;
 * one store is meant to be shared by the whole application.
 *
 * <p><b>SQLite</b> ({@code jdbc:sqlite:/path/agents.db}; a plain {@code org.sqlite.SQLiteDataSource}, a pool or a
 * URL-configured data source alike): a file that any number of threads and processes write at once. Every connection
 * the store borrows is set to WAL mode, {@code synchronous=NORMAL} (a write the store acknowledged survives a kill
 * of the process; a power loss can lose the last commits, never the file's consistency), foreign keys on and a busy
 * timeout of 5 s; every transaction that may write starts with {@code BEGIN IMMEDIATE}, taking the file's write lock
 * before it reads, so writers queue instead of deadlocking. A write still busy after the timeout runs again after a
 * short pause, a few times, then fails retryably. Other processes' appends wake waiting reads and tool-call waits
 * through the file's change counter ({@code PRAGMA data_version}), read every {@link
 * Builder#changePollInterval(Duration)} (default 50 ms) on a connection the store holds; a wake-up crosses processes
 * within about one interval. Deadlines are kept in the file and swept by every store on it. The tables live in the
 * file's {@code main} database: leave the schema unset and keep stores apart with table prefixes.
 *
 * <pre>{@code
 * HikariDataSource pool = new HikariDataSource(hikariConfig);   // the store never closes it
 * JdbcSessionStore store = JdbcSessionStore.builder()
 *     .dataSource(pool)
 *     .schema("agents")               // default "public"
 *     .tablePrefix("session_store_")  // the default
 *     .build();
 * }</pre>
 *
 * <p>Any {@link DataSource} of PostgreSQL JDBC (pgjdbc) connections works; HikariCP is the documented default. Each
 * store holds one connection of it for {@code LISTEN} for as long as it is open (a pool's leak detection reports
 * it), and borrows others per call, never across a waiting read, and one now and then for a moment to notify other
 * instances of its appends, so size a pool for your concurrency plus one. Behind PgBouncer in transaction mode, or a
 * connection proxy that hides pgjdbc, give notifications a data source of their own
 * ({@link Builder#notificationDataSource(DataSource)}) or turn them off ({@link Builder#notifications(boolean)}):
 * waiting reads then poll. The
 * store owns its schema: on {@link Builder#build()} it creates or upgrades its tables in one transaction, guarded by
 * a transaction-scoped advisory lock so that nodes starting together are safe (waiting at most
 * {@link Builder#migrationLockTimeout(Duration)} for one another), unless {@link Builder#createSchema(boolean)} says
 * you run the shipped migrations ({@code dev/sessionstore/jdbc/postgresql/V*__*.sql}) yourself; then a role with {@code
 * SELECT, INSERT, UPDATE, DELETE} on the tables and {@code USAGE} on the schema is enough.
 *
 * <p>Several stores, in one process or many, may share one database and one schema/prefix: they see the same
 * sessions and give the same guarantees as one store. Stores with different schemas or prefixes never see each
 * other's data.
 *
 * <p><b>Failures</b> (guarantee 17 of docs/guarantees.md). A call that loses its connection (a killed backend, a
 * database restart, a failover) tries again on a fresh connection, at once and then with growing pauses, for up to
 * {@link Builder#retryTimeout(Duration)}. When the connection was lost while the database committed a write, so that
 * it may or may not be stored, the store settles the doubt itself: idempotent writes (appends and batches by event
 * id, agent steps, session, run and tool-call saves, checkpoint and summary puts) run again and return what is
 * stored; a fork reads what is stored to learn whether it was applied; calls whose result says what they changed (a
 * tool-call resolve, {@code expireAt}, {@code cancelDeadline}, session and checkpoint deletes,
 * {@code deleteByTenant}, {@code deleteOlderThan}, a truncation) ask PostgreSQL whether their transaction committed
 * ({@code txid_status}) and, if it did, return what this call did (a resolution it won is announced to waiters as
 * usual), else run again; on SQLite, where no commit is left in doubt by a lost connection, a truncation reports it.
 * A {@link StoreFailureException} means the call wrote nothing; an
 * {@link OutcomeUnknownException} means it may have, and that retrying with the same ids is safe. Waiting reads keep
 * waiting through lost connections and restarts until their timeout. Size the pool's own connection timeout below
 * the retry timeout, so that an unreachable database is asked again within it. Deadlocks and serialization failures
 * run again after short jittered pauses, a few times within the retry timeout.
 *
 * <p>Every other database error is classified by its SQLState: a value the database rejects (class 22, not-null and
 * check violations) or one past its size limits (class 54; a batch append whose events would take more than the
 * 1 GB PostgreSQL takes in one statement is refused before it is sent) is an {@link InvalidArgumentException}; a
 * unique or foreign-key violation a {@link dev.sessionstore.ConflictException}; the rest a
 * {@link StoreFailureException} whose {@link StoreFailureException#isRetryable()} is {@code true} for transient
 * failures (connection lost, statement or lock timeout, too many connections, out of memory or disk, a read-only
 * standby during failover, deadlocks past the store's retries) and {@code false} for those that need a fix first
 * (privileges, missing tables or database, internal errors).
 *
 * <p><b>The store's contract.</b> Every {@link SessionStore} operation forwards to the adapter behind the validating
 * layer ({@link ForwardingSessionStore}), so this class holds no copy of one and answers each as the contract says:
 * {@link #capabilities()} is every {@link Capability}; {@link #schemaVersion()} the last migration script applied to
 * the tables ({@code V<n>__*.sql} in the dialect's folder, recorded in {@code <prefix>schema_version}), never empty;
 * {@link #unwrap(Class)} this store, or its SPI hook {@code dev.sessionstore.spi.StoredValues}
 * ({@link Capability#STORED_VALUE_REWRITE}: a keyset-paged scan of the tables' values and a compare-and-set
 * {@code UPDATE} of one); {@link #subscribe} delivers the store's internal events (each transaction run again after a
 * deadlock, a serialization failure or a lost connection, with its cause; each unknown commit outcome the store
 * settled itself; each tool call its deadline sweeper expired; the wake latency of a waiting read this instance's own
 * commit woke: bind {@code SessionStoreMetrics} of session-store-micrometer to meter them); {@link #toString()} names
 * the adapter and its target (database address, schema and table prefix; never a user or password).
 */
public final class JdbcSessionStore extends ForwardingSessionStore {

  private final OwnPool ownPool;

  private JdbcSessionStore(SessionStore store, OwnPool ownPool) {
    super(store, Interception.none());
    this.ownPool = ownPool;
  }

  /**
   * A builder with the defaults documented on each setter; the database, {@link Builder#dataSource} or
   * {@link Builder#jdbcUrl}, is required.
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Stops the store's background work (deadline sweeps, the listener) after sending the notifications of its last
   * appends, and refuses further calls with {@link dev.sessionstore.StoreClosedException}, which also ends the
   * waiting reads and tool-call waits still blocked and the calls still retrying after a lost connection. A data
   * source given to the builder stays open; the pool the store opened for a {@link Builder#jdbcUrl JDBC URL} is
   * closed. Closing twice is fine.
   */
  @Override
  public void close() {
    try {
      super.close();
    } finally {
      if (ownPool != null) {
        ownPool.close();
      }
    }
  }

  /**
   * Configures and opens a {@link JdbcSessionStore}. Each setter may be called once and refuses {@code null};
   * {@link #build()} checks the whole. Not thread-safe; the built store is immutable.
   */
  public static final class Builder {

    private static final Duration MIN_INTERVAL = Duration.ofMillis(10);
    private static final Duration MAX_INTERVAL = Duration.ofHours(1);
    private static final Duration MAX_RETRY_TIMEOUT = Duration.ofMinutes(10);
    /** HikariCP's least connection timeout. */
    private static final Duration MIN_CONNECT_TIMEOUT = Duration.ofMillis(250);
    private static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private DataSource dataSource;
    private String jdbcUrl;
    private String schema;
    private String tablePrefix;
    private Clock clock;
    private Boolean createSchema;
    private Boolean modelCallAudit;
    private Duration deadlineSweepInterval;
    private Duration waitPollInterval;
    private Duration retryTimeout;
    private Boolean notifications;
    private DataSource notificationDataSource;
    private Duration keepAliveInterval;
    private Duration changePollInterval;
    private Duration migrationLockTimeout;
    private Duration connectTimeout;
    private Duration statementTimeout;
    private RetentionPolicy retentionPolicy;
    private Duration retentionInterval;

    private Builder() {
    }

    /**
     * The database, or else {@link #jdbcUrl(String)}. Any {@link DataSource} of a supported database (PostgreSQL); a
     * connection pool such as HikariCP in production. The store borrows connections per call and keeps one for {@code
     * LISTEN}; it never closes the data source.
     *
     * @throws InvalidArgumentException if {@code dataSource} is null
     * @throws InvalidArgumentException naming the setter if already set
     */
    public Builder dataSource(DataSource dataSource) {
      requireUnset("dataSource", this.dataSource);
      this.dataSource = requireNonNull("dataSource", dataSource);
      return this;
    }

    /**
     * The database by JDBC URL, instead of a {@link #dataSource(DataSource)}: the store opens a HikariCP pool of at
     * most 10 connections on it, named {@code session-store}, and closes the pool when the store closes. User and
     * password go in the URL ({@code jdbc:postgresql://host:5432/db?user=app&password=...}). For a pool tuned to
     * your load, build a {@code HikariDataSource} yourself and give it as the data source. The URL's driver
     * ({@code org.postgresql:postgresql} or {@code org.xerial:sqlite-jdbc}) and {@code com.zaxxer:HikariCP} are the
     * application's dependencies (session-store-bom manages their versions): {@link #build()} fails at once, naming
     * the one to add, when one is missing.
     *
     * @throws InvalidArgumentException naming {@code jdbcUrl} if it is null or does not start with {@code jdbc:}
     * @throws InvalidArgumentException naming the setter if already set
     */
    public Builder jdbcUrl(String jdbcUrl) {
      requireUnset("jdbcUrl", this.jdbcUrl);
      requireNonNull("jdbcUrl", jdbcUrl);
      if (!jdbcUrl.startsWith("jdbc:")) {
        throw new InvalidArgumentException("jdbcUrl", "must start with jdbc:, as jdbc:postgresql://host:5432/db does");
      }
      this.jdbcUrl = jdbcUrl;
      return this;
    }

    /**
     * The schema holding the tables; default {@code "public"}. A name matching {@code [a-z_][a-z0-9_]*}, at most 63
     * chars, not starting with {@code pg_}. With {@link #createSchema(boolean) createSchema(true)} the schema is
     * created if missing.
     *
     * @throws InvalidArgumentException naming {@code schema} if the name is null or not allowed
     * @throws InvalidArgumentException naming the setter if already set
     */
    public Builder schema(String schema) {
      requireUnset("schema", this.schema);
      this.schema = StoreSettings.requireSchema(schema);
      return this;
    }

    /**
     * The prefix of every table, index and constraint name; default {@code "session_store_"}. Empty, or matching
     * {@code [a-z_][a-z0-9_]*} with at most 24 chars, not starting with {@code sqlite_} (reserved by SQLite). Distinct
     * prefixes keep several stores apart in one schema.
     *
     * @throws InvalidArgumentException naming {@code tablePrefix} if the prefix is null or not allowed
     * @throws InvalidArgumentException naming the setter if already set
     */
    public Builder tablePrefix(String tablePrefix) {
      requireUnset("tablePrefix", this.tablePrefix);
      this.tablePrefix = StoreSettings.requireTablePrefix(tablePrefix);
      return this;
    }

    /**
     * The clock for every timestamp the store writes and for deciding when deadlines are due; default
     * {@link Clock#systemUTC()}. The database's own time is never used for those.
     *
     * @throws InvalidArgumentException if {@code clock} is null
     * @throws InvalidArgumentException naming the setter if already set
     */
    public Builder clock(Clock clock) {
      requireUnset("clock", this.clock);
      this.clock = requireNonNull("clock", clock);
      return this;
    }

    /**
     * Whether {@link #build()} creates or upgrades the tables; default {@code true}. Pass {@code false} when
     * migrations run separately: {@code build()} then only checks that the schema is at the version this library
     * needs, and the store needs no DDL privileges.
     *
     * @throws InvalidArgumentException naming the setter if already set
     */
    public Builder createSchema(boolean createSchema) {
      requireUnset("createSchema", this.createSchema);
      this.createSchema = createSchema;
      return this;
    }

    /**
     * Whether the model-call audit records rows; default {@code false}.
     *
     * @throws InvalidArgumentException naming the setter if already set
     */
    public Builder modelCallAudit(boolean modelCallAudit) {
      requireUnset("modelCallAudit", this.modelCallAudit);
      this.modelCallAudit = modelCallAudit;
      return this;
    }

    /**
     * How often this store looks for due tool-call deadlines and expires them; default 1 second, between 10 ms and
     * 1 hour. Reads see a due call expired whether or not a sweep ran; the sweep makes expiry happen for calls
     * nobody reads. Any number of stores may sweep one database: each due call is expired exactly once.
     *
     * @throws InvalidArgumentException naming {@code deadlineSweepInterval} if null or out of range
     * @throws InvalidArgumentException naming the setter if already set
     */
    public Builder deadlineSweepInterval(Duration interval) {
      requireUnset("deadlineSweepInterval", this.deadlineSweepInterval);
      this.deadlineSweepInterval = requireInterval("deadlineSweepInterval", interval);
      return this;
    }

    /**
     * Applies {@code policy} every {@code interval} ({@link dev.sessionstore.Retention}; the first time one interval
     * after the build), on a thread beside the deadline sweeper's, until the store is closed. Default: no schedule;
     * {@link SessionStore#retention()} applies policies on demand either way. Durable and safe with many instances:
     * every store built with a schedule sweeps the database, each session handled by whichever comes first (on
     * PostgreSQL a sweep skips, with {@code SKIP LOCKED}, the sessions another transaction holds, and takes them up
     * next time); idleness and ages are measured by the store clock. Give every instance the same policy. The interval
     * is bounded as on every adapter ({@link RetentionRules#requireInterval}): at least 10 ms, so the sweep never
     * spins, and at most 1 hour, as the schedule lives and dies with the instance and runs first one interval after
     * the build (a longer interval could outlast the instance and never sweep).
     *
     * @throws InvalidArgumentException naming {@code retentionPolicy} if it is null, or {@code retentionInterval} if
     *                                  it is null or out of range (10 ms to 1 hour)
     * @throws InvalidArgumentException naming the setter if already set
     */
    public Builder retention(RetentionPolicy policy, Duration interval) {
      requireUnset("retentionPolicy", this.retentionPolicy);
      requireNonNull("retentionPolicy", policy);
      this.retentionInterval = RetentionRules.requireInterval(interval);
      this.retentionPolicy = policy;
      return this;
    }

    /**
     * How often a waiting read re-reads when no wake-up arrives; default 5 seconds, between 10 ms and 1 hour.
     * Waiting reads wake on notifications; this bounds the delay should one be lost (for example while the
     * listening connection reconnects).
     *
     * @throws InvalidArgumentException naming {@code waitPollInterval} if null or out of range
     * @throws InvalidArgumentException naming the setter if already set
     */
    public Builder waitPollInterval(Duration interval) {
      requireUnset("waitPollInterval", this.waitPollInterval);
      this.waitPollInterval = requireInterval("waitPollInterval", interval);
      return this;
    }

    /**
     * How long a call keeps trying after it lost its connection or could not get one (a killed backend, a database
     * restart or failover), counted from the call's start; default 10 seconds, between 0 (no retry) and 10 minutes.
     * Within it the store also settles writes whose outcome the lost connection left unknown; after it, a call
     * fails with {@link StoreFailureException} if it wrote nothing, or {@link OutcomeUnknownException} if it may
     * have. Waiting reads keep trying until their own timeout instead. A single connection attempt of the data
     * source may take longer (its own connection timeout).
     *
     * @throws InvalidArgumentException naming {@code retryTimeout} if null, negative or above 10 minutes
     * @throws InvalidArgumentException naming the setter if already set
     */
    public Builder retryTimeout(Duration timeout) {
      requireUnset("retryTimeout", this.retryTimeout);
      requireNonNull("retryTimeout", timeout);
      if (timeout.isNegative() || timeout.compareTo(MAX_RETRY_TIMEOUT) > 0) {
        throw new InvalidArgumentException("retryTimeout", timeout + " is out of range: use between 0 and "
            + MAX_RETRY_TIMEOUT.toMinutes() + " minutes");
      }
      this.retryTimeout = timeout;
      return this;
    }

    /**
     * Whether appends wake the waiting reads of other store instances at once, by {@code NOTIFY} to a
     * {@code LISTEN} connection each instance holds; default {@code true}. With {@code false} the store holds no
     * such connection and sends no notifications: waiting reads (of this and every other instance) find other
     * instances' appends by polling every {@link #waitPollInterval(Duration)}, while this instance's own appends
     * still wake its own waiting reads at once. Turn it off where a connection cannot {@code LISTEN} and no
     * {@link #notificationDataSource(DataSource)} can be given.
     *
     * @throws InvalidArgumentException naming the setter if already set
     */
    public Builder notifications(boolean notifications) {
      requireUnset("notifications", this.notifications);
      this.notifications = notifications;
      return this;
    }

    /**
     * A data source of its own for notifications: the {@code LISTEN} connection the store holds and the
     * connections it borrows to {@code NOTIFY}; default the {@link #dataSource(DataSource)}. Give one when the main
     * data source goes through PgBouncer in transaction pooling mode, which hands each transaction to any server
     * connection, so that a {@code LISTEN} is lost as soon as its transaction ends: point this one at PostgreSQL
     * directly (or at a PgBouncer pool in session mode), e.g. a small pool or a {@code PGSimpleDataSource}. Give
     * one also when the main data source's connections are proxies (a tracing or logging wrapper) that do not
     * unwrap to pgjdbc's {@code PGConnection}: without it such a store cannot listen, logs a warning and polls.
     *
     * @throws InvalidArgumentException if {@code dataSource} is null
     * @throws InvalidArgumentException naming the setter if already set
     */
    public Builder notificationDataSource(DataSource dataSource) {
      requireUnset("notificationDataSource", this.notificationDataSource);
      this.notificationDataSource = requireNonNull("notificationDataSource", dataSource);
      return this;
    }

    /**
     * How often the {@code LISTEN} connection makes a round trip to prove it is alive; default 10 seconds,
     * between 10 ms and 1 hour. A connection that only waits notices nothing when its peer vanishes without closing
     * it (a failover, a load balancer or NAT dropping idle connections); the round trip, which fails when no answer
     * comes within the same interval (at least 1 second), makes the store notice, reconnect and listen again. Until
     * it does, waiting reads poll; within about twice this interval wake-ups from other instances resume.
     *
     * @throws InvalidArgumentException naming {@code keepAliveInterval} if null or out of range
     * @throws InvalidArgumentException naming the setter if already set
     */
    public Builder keepAliveInterval(Duration interval) {
      requireUnset("keepAliveInterval", this.keepAliveInterval);
      this.keepAliveInterval = requireInterval("keepAliveInterval", interval);
      return this;
    }

    /**
     * SQLite only: how often the store asks the database file whether another connection (another store instance,
     * another process) committed, to wake its waiting reads and tool-call waits; default 50 ms, between 10 ms and
     * 1 hour. Each look is one {@code PRAGMA data_version} on a connection the store holds for it; a change costs one
     * more query, over the sessions some read waits on, and wakes only the waiting reads of the sessions it changed,
     * which re-read their session. Appends of this store wake its own waiting
     * reads at once, whatever the interval. Ignored by PostgreSQL, where other instances' appends arrive as
     * notifications.
     *
     * @throws InvalidArgumentException naming {@code changePollInterval} if null or out of range
     * @throws InvalidArgumentException naming the setter if already set
     */
    public Builder changePollInterval(Duration interval) {
      requireUnset("changePollInterval", this.changePollInterval);
      this.changePollInterval = requireInterval("changePollInterval", interval);
      return this;
    }

    /**
     * How long {@link #build()} waits for another node that is migrating the same schema and prefix; default 1
     * minute, between 10 ms and 1 hour. Past it, {@code build()} fails with a retryable
     * {@link StoreFailureException} saying so, rather than wait forever for a node that hung while it held the
     * migration lock. The timeout also bounds each lock the migration itself waits for.
     *
     * @throws InvalidArgumentException naming {@code migrationLockTimeout} if null or out of range
     * @throws InvalidArgumentException naming the setter if already set
     */
    public Builder migrationLockTimeout(Duration timeout) {
      requireUnset("migrationLockTimeout", this.migrationLockTimeout);
      this.migrationLockTimeout = requireInterval("migrationLockTimeout", timeout);
      return this;
    }

    /**
     * How long {@link #build()} waits for its first connection to the database; default 5 s, between 250 ms and
     * 10 minutes. A database that refuses connections or cannot be reached (it may be starting) is asked again
     * within this time, then the build fails with a retryable {@link StoreFailureException}; a refusal that needs a
     * fix first (a wrong user or password, a missing database, a SQLite file in a folder that does not exist) fails
     * the build at once, not retryable. The message gives the driver's reason and SQLState. With
     * {@link #jdbcUrl(String)} it is also the pool's connection timeout (HikariCP {@code connectionTimeout}) and,
     * for PostgreSQL, pgjdbc's {@code connectTimeout} and {@code loginTimeout} (rounded up to seconds, unless the URL
     * sets them): the longest a call waits for a connection. With a {@link #dataSource(DataSource)} of your own, its
     * own connection timeout bounds each attempt: keep it below this one.
     *
     * @throws InvalidArgumentException naming {@code connectTimeout} if null or out of range
     * @throws InvalidArgumentException naming the setter if already set
     */
    public Builder connectTimeout(Duration timeout) {
      requireUnset("connectTimeout", this.connectTimeout);
      requireNonNull("connectTimeout", timeout);
      if (timeout.compareTo(MIN_CONNECT_TIMEOUT) < 0 || timeout.compareTo(MAX_RETRY_TIMEOUT) > 0) {
        throw new InvalidArgumentException("connectTimeout", timeout + " is out of range: use between "
            + MIN_CONNECT_TIMEOUT.toMillis() + " ms and " + MAX_RETRY_TIMEOUT.toMinutes() + " minutes");
      }
      this.connectTimeout = timeout;
      return this;
    }

    /**
     * The longest one statement of a call may run on PostgreSQL before the database cancels it; default none. A
     * statement past it (one waiting for a row another connection holds locked, a read of a huge page) fails its call
     * with a retryable {@link StoreFailureException} whose message says {@code [57014] canceling statement due to
     * statement timeout}; nothing of that call is written, and the store does not run it again itself. Between 10 ms
     * and 1 hour. It is PostgreSQL's {@code statement_timeout}, set once on the session of each connection the store
     * borrows, which keeps it when the connection goes back to the pool: if other code shares the pool, give the store
     * a pool of its own. Waiting reads are not statements (they wait between short reads) and the schema migration at
     * {@link #build()} is bounded by {@link #migrationLockTimeout(Duration)} instead. Not applicable to SQLite, where
     * a statement waits only for the file's write lock, bounded by the 5 s busy timeout: {@code build()} refuses it
     * there.
     *
     * @throws InvalidArgumentException naming {@code statementTimeout} if null or out of range, or at
     *                                  {@link #build()} if the database is SQLite
     * @throws InvalidArgumentException naming the setter if already set
     */
    public Builder statementTimeout(Duration timeout) {
      requireUnset("statementTimeout", this.statementTimeout);
      this.statementTimeout = requireInterval("statementTimeout", timeout);
      return this;
    }

    /**
     * Checks the configuration, creates or checks the schema, starts the listener and the deadline sweeper, and
     * returns the open store. Close it to stop them; closing the store leaves the data source open.
     *
     * @throws InvalidArgumentException naming {@code dataSource} if neither or both of a data source and a JDBC URL
     *                                  were set, or its database is not a supported one, or its driver is below
     *                                  the version the store needs (sqlite-jdbc 3.38.0.0; older pgjdbc than 42.7.13
     *                                  and HikariCP than 5.1.0 only log a warning); {@code jdbcUrl} if no JDBC
     *                                  driver on the class path takes it, or the URL's driver
     *                                  ({@code org.postgresql:postgresql}, {@code org.xerial:sqlite-jdbc}) or
     *                                  {@code com.zaxxer:HikariCP} is missing, the message naming the Maven
     *                                  coordinates and the version session-store-bom manages; {@code notifications}
     *                                  if notification
     *                                  settings were given with {@code notifications(false)}; {@code statementTimeout}
     *                                  if set for SQLite
     * @throws StoreFailureException    if the database cannot be reached within {@link #connectTimeout(Duration)}
     *                                  (retryable) or refuses the connection (a wrong user or password, a missing
     *                                  database or SQLite folder: not retryable), with the driver's reason and
     *                                  SQLState; or with
     *                                  {@code createSchema(false)} if the schema is missing or older than this
     *                                  library needs
     */
    public JdbcSessionStore build() {
      if (dataSource == null && jdbcUrl == null) {
        throw new InvalidArgumentException("dataSource", "a database is required: call"
            + " JdbcSessionStore.builder().dataSource(...), e.g. with a HikariDataSource, or .jdbcUrl(...)");
      }
      if (dataSource != null && jdbcUrl != null) {
        throw new InvalidArgumentException("dataSource", "both dataSource and jdbcUrl were set: give the database once");
      }
      if (Boolean.FALSE.equals(notifications) && (notificationDataSource != null || keepAliveInterval != null
          || changePollInterval != null)) {
        throw new InvalidArgumentException("notifications", "notifications(false) turns notification off, yet "
            + (notificationDataSource != null ? "notificationDataSource"
                : keepAliveInterval != null ? "keepAliveInterval" : "changePollInterval")
            + " was set for it: drop one of the two");
      }
      Duration connecting = connectTimeout == null ? DEFAULT_CONNECT_TIMEOUT : connectTimeout;
      OwnPool ownPool = jdbcUrl == null ? null : openPool(jdbcUrl, connecting);
      try {
        return new JdbcSessionStore(open(ownPool == null ? dataSource : ownPool.dataSource()), ownPool);
      } catch (RuntimeException | Error failure) {
        if (ownPool != null) {
          ownPool.close();
        }
        throw failure;
      }
    }

    private SessionStore open(DataSource database) {
      return ValidatingSessionStore.wrap(JdbcStore.open(new StoreSettings(
          database,
          schema == null ? "public" : schema,
          tablePrefix == null ? "session_store_" : tablePrefix,
          clock == null ? Clock.systemUTC() : clock,
          createSchema == null || createSchema,
          modelCallAudit != null && modelCallAudit,
          deadlineSweepInterval == null ? Duration.ofSeconds(1) : deadlineSweepInterval,
          waitPollInterval == null ? Duration.ofSeconds(5) : waitPollInterval,
          retryTimeout == null ? Duration.ofSeconds(10) : retryTimeout,
          notifications == null || notifications,
          notificationDataSource == null ? database : notificationDataSource,
          keepAliveInterval == null ? Duration.ofSeconds(10) : keepAliveInterval,
          changePollInterval == null ? Duration.ofMillis(50) : changePollInterval,
          migrationLockTimeout == null ? Duration.ofMinutes(1) : migrationLockTimeout,
          connectTimeout == null ? DEFAULT_CONNECT_TIMEOUT : connectTimeout,
          statementTimeout == null ? Duration.ZERO : statementTimeout,
          retentionPolicy,
          retentionInterval)));
    }

    private static OwnPool openPool(String jdbcUrl, Duration connectTimeout) {
      String scheme = jdbcUrl.toLowerCase(Locale.ROOT);
      if (scheme.startsWith("jdbc:postgresql:")) {
        DriverLibrary.POSTGRESQL.require("jdbcUrl", "jdbcUrl(\"jdbc:postgresql:...\") connects through");
      } else if (scheme.startsWith("jdbc:sqlite:")) {
        DriverLibrary.SQLITE.require("jdbcUrl", "jdbcUrl(\"jdbc:sqlite:...\") connects through");
      }
      DriverLibrary.HIKARICP.require("jdbcUrl", "jdbcUrl(...) opens a pool of its own, which needs");
      DriverLibrary.HIKARICP.checkVersion("jdbcUrl");
      try {
        DriverManager.getDriver(jdbcUrl);
      } catch (SQLException noDriver) {
        int subprotocolEnd = jdbcUrl.indexOf(':', "jdbc:".length());
        throw new InvalidArgumentException("jdbcUrl", "no JDBC driver on the class path takes "
            + (subprotocolEnd < 0 ? "it" : jdbcUrl.substring(0, subprotocolEnd + 1) + "..."));
      }
      // The driver's own answer, at once: a pool would wait its whole timeout and report that instead.
      FirstConnection.check(jdbcUrl, connectTimeout);
      return OwnPool.open(jdbcUrl, connectTimeout);
    }

    private static void requireUnset(String setter, Object current) {
      if (current != null) {
        throw new InvalidArgumentException(setter, "was already set; each setter may be called once");
      }
    }

    private static <T> T requireNonNull(String setter, T value) {
      if (value == null) {
        throw new InvalidArgumentException(setter, "must not be null");
      }
      return value;
    }

    private static Duration requireInterval(String setter, Duration interval) {
      requireNonNull(setter, interval);
      if (interval.compareTo(MIN_INTERVAL) < 0 || interval.compareTo(MAX_INTERVAL) > 0) {
        throw new InvalidArgumentException(setter, interval + " is out of range: use between "
            + MIN_INTERVAL.toMillis() + " ms and " + MAX_INTERVAL.toHours() + " hour");
      }
      return interval;
    }
  }
}
