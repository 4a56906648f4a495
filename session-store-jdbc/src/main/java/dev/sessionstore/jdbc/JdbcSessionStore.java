package dev.sessionstore.jdbc;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.OutcomeUnknownException;
import dev.sessionstore.SessionStore;
import dev.sessionstore.StoreFailureException;
import dev.sessionstore.jdbc.internal.JdbcStore;
import dev.sessionstore.jdbc.internal.StoreSettings;
import java.time.Clock;
import java.time.Duration;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * The PostgreSQL {@link SessionStore}: every guarantee of the session-store contract, including waiting reads woken
 * across processes ({@code LISTEN/NOTIFY}) and tool-call deadlines kept in the database and swept by any instance.
 * Every {@link dev.sessionstore.Capability} is supported.
 *
 * <pre>{@code
 * HikariDataSource pool = new HikariDataSource(hikariConfig);   // the store never closes it
 * SessionStore store = JdbcSessionStore.builder()
 *     .dataSource(pool)
 *     .schema("agents")               // default "public"
 *     .tablePrefix("session_store_")  // the default
 *     .build();
 * }</pre>
 *
 * <p>Any {@link DataSource} of PostgreSQL JDBC (pgjdbc) connections works; HikariCP is the documented default. Each
 * store holds one connection of it for {@code LISTEN} for as long as it is open (a pool's leak detection reports
 * it), and borrows others per call, never across a waiting read, and one now and then for a moment to notify other
 * instances of its appends, so size a pool for your concurrency plus one. The
 * store owns its schema: on {@link Builder#build()} it creates or upgrades its tables, guarded by an advisory lock so
 * that nodes starting together are safe, unless {@link Builder#createSchema(boolean)} says you run the shipped
 * migrations ({@code dev/sessionstore/jdbc/postgresql/V*__*.sql}) yourself; then a role with {@code SELECT, INSERT,
 * UPDATE, DELETE} on the tables and {@code USAGE} on the schema is enough.
 *
 * <p>Several stores, in one process or many, may share one database and one schema/prefix: they see the same
 * sessions and give the same guarantees as one store. Stores with different schemas or prefixes never see each
 * other's data.
 *
 * <p><b>Failures</b> (SPEC guarantee 17). A call that loses its connection (a killed backend, a database restart, a
 * failover) tries again on a fresh connection, at once and then with growing pauses, for up to
 * {@link Builder#retryTimeout(Duration)}. When the connection was lost while the database committed a write, so that
 * it may or may not be stored, the store settles the doubt itself: idempotent writes (appends and batches by event
 * id, agent steps, session, run and tool-call saves, checkpoint and summary puts, deletes) run again and return what is
 * stored; a tool-call resolve and a fork read what is stored to learn whether they were applied; a truncation, which
 * cannot tell, reports it. A {@link StoreFailureException} means the call wrote nothing; an
 * {@link OutcomeUnknownException} means it may have, and that retrying with the same ids is safe. Waiting reads keep
 * waiting through lost connections and restarts until their timeout. Size the pool's own connection timeout below
 * the retry timeout, so that an unreachable database is asked again within it.
 */
public final class JdbcSessionStore {

  private JdbcSessionStore() {
  }

  /** A builder with the defaults documented on each setter; {@link Builder#dataSource} is required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Configures and opens a {@link JdbcSessionStore}. Each setter may be called once and refuses {@code null};
   * {@link #build()} checks the whole. Not thread-safe; the built store is immutable.
   */
  public static final class Builder {

    /** Identifiers the store puts into SQL: lower-case, so that quoting never changes their meaning. */
    private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]*");
    /** PostgreSQL's identifier limit. */
    private static final int MAX_SCHEMA_LENGTH = 63;
    /** Leaves room for the longest derived name ({@code <prefix>session_checkpoints_session_fkey}) in 63. */
    private static final int MAX_PREFIX_LENGTH = 24;
    private static final Duration MIN_INTERVAL = Duration.ofMillis(10);
    private static final Duration MAX_INTERVAL = Duration.ofHours(1);
    private static final Duration MAX_RETRY_TIMEOUT = Duration.ofMinutes(10);

    private DataSource dataSource;
    private String schema;
    private String tablePrefix;
    private Clock clock;
    private Boolean createSchema;
    private Boolean modelCallAudit;
    private Duration deadlineSweepInterval;
    private Duration waitPollInterval;
    private Duration retryTimeout;

    private Builder() {
    }

    /**
     * The database, required. Any {@link DataSource}; a connection pool such as HikariCP in production. The store
     * borrows connections per call and keeps one for {@code LISTEN}; it never closes the data source.
     *
     * @throws InvalidArgumentException if {@code dataSource} is null
     * @throws IllegalStateException    if already set
     */
    public Builder dataSource(DataSource dataSource) {
      requireUnset("dataSource", this.dataSource);
      this.dataSource = requireNonNull("dataSource", dataSource);
      return this;
    }

    /**
     * The schema holding the tables; default {@code "public"}. A name matching {@code [a-z_][a-z0-9_]*}, at most 63
     * chars, not starting with {@code pg_}. With {@link #createSchema(boolean) createSchema(true)} the schema is
     * created if missing.
     *
     * @throws InvalidArgumentException naming {@code schema} if the name is null or not allowed
     * @throws IllegalStateException    if already set
     */
    public Builder schema(String schema) {
      requireUnset("schema", this.schema);
      requireIdentifier("schema", requireNonNull("schema", schema), MAX_SCHEMA_LENGTH);
      if (schema.startsWith("pg_")) {
        throw new InvalidArgumentException("schema",
            "\"" + schema + "\": names starting with pg_ are reserved by PostgreSQL; choose another name");
      }
      this.schema = schema;
      return this;
    }

    /**
     * The prefix of every table, index and constraint name; default {@code "session_store_"}. Empty, or matching
     * {@code [a-z_][a-z0-9_]*} with at most 24 chars. Distinct prefixes keep several stores apart in one schema.
     *
     * @throws InvalidArgumentException naming {@code tablePrefix} if the prefix is null or not allowed
     * @throws IllegalStateException    if already set
     */
    public Builder tablePrefix(String tablePrefix) {
      requireUnset("tablePrefix", this.tablePrefix);
      requireNonNull("tablePrefix", tablePrefix);
      if (!tablePrefix.isEmpty()) {
        requireIdentifier("tablePrefix", tablePrefix, MAX_PREFIX_LENGTH);
      }
      this.tablePrefix = tablePrefix;
      return this;
    }

    /**
     * The clock for every timestamp the store writes and for deciding when deadlines are due; default
     * {@link Clock#systemUTC()}. The database's own time is never used for those.
     *
     * @throws InvalidArgumentException if {@code clock} is null
     * @throws IllegalStateException    if already set
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
     * @throws IllegalStateException if already set
     */
    public Builder createSchema(boolean createSchema) {
      requireUnset("createSchema", this.createSchema);
      this.createSchema = createSchema;
      return this;
    }

    /**
     * Whether the model-call audit records rows; default {@code false}.
     *
     * @throws IllegalStateException if already set
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
     * @throws IllegalStateException    if already set
     */
    public Builder deadlineSweepInterval(Duration interval) {
      requireUnset("deadlineSweepInterval", this.deadlineSweepInterval);
      this.deadlineSweepInterval = requireInterval("deadlineSweepInterval", interval);
      return this;
    }

    /**
     * How often a waiting read re-reads when no wake-up arrives; default 5 seconds, between 10 ms and 1 hour.
     * Waiting reads wake on notifications; this bounds the delay should one be lost (for example while the
     * listening connection reconnects).
     *
     * @throws InvalidArgumentException naming {@code waitPollInterval} if null or out of range
     * @throws IllegalStateException    if already set
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
     * @throws IllegalStateException    if already set
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
     * Checks the configuration, creates or checks the schema, starts the listener and the deadline sweeper, and
     * returns the open store. Close it to stop them; closing the store leaves the data source open.
     *
     * @throws IllegalStateException if no data source was set
     * @throws StoreFailureException if the database cannot be reached (within the retry timeout) or does not exist,
     *                               with the database's message and SQLState; or with {@code createSchema(false)}
     *                               if the schema is missing or older than this library needs
     */
    public SessionStore build() {
      if (dataSource == null) {
        throw new IllegalStateException(
            "dataSource is required: call JdbcSessionStore.builder().dataSource(...), e.g. with a HikariDataSource");
      }
      return JdbcStore.open(new StoreSettings(
          dataSource,
          schema == null ? "public" : schema,
          tablePrefix == null ? "session_store_" : tablePrefix,
          clock == null ? Clock.systemUTC() : clock,
          createSchema == null || createSchema,
          modelCallAudit != null && modelCallAudit,
          deadlineSweepInterval == null ? Duration.ofSeconds(1) : deadlineSweepInterval,
          waitPollInterval == null ? Duration.ofSeconds(5) : waitPollInterval,
          retryTimeout == null ? Duration.ofSeconds(10) : retryTimeout));
    }

    private static void requireUnset(String setter, Object current) {
      if (current != null) {
        throw new IllegalStateException(setter + " was already set; each setter may be called once");
      }
    }

    private static <T> T requireNonNull(String setter, T value) {
      if (value == null) {
        throw new InvalidArgumentException(setter, "must not be null");
      }
      return value;
    }

    private static void requireIdentifier(String setter, String value, int maxLength) {
      if (!IDENTIFIER.matcher(value).matches()) {
        throw new InvalidArgumentException(setter, "\"" + value + "\" is not allowed: use lower-case letters, "
            + "digits and underscores, not starting with a digit ([a-z_][a-z0-9_]*)");
      }
      if (value.length() > maxLength) {
        throw new InvalidArgumentException(setter, "\"" + value + "\" is " + value.length()
            + " chars long; use at most " + maxLength);
      }
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
