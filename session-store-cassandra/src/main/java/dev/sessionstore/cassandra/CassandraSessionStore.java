package dev.sessionstore.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverException;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.SessionStore;
import dev.sessionstore.StoreFailureException;
import dev.sessionstore.cassandra.internal.CassandraStore;
import dev.sessionstore.cassandra.internal.StoreSettings;
import dev.sessionstore.spi.RetentionRules;
import dev.sessionstore.spi.ValidatingSessionStore;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A {@link SessionStore} on Apache Cassandra 4.1+ / 5.0 (and what speaks its protocol), through the Apache Cassandra
 * Java driver.
 *
 * <pre>{@code
 * SessionStore store = CassandraSessionStore.builder()
 *     .contactPoints(List.of(new InetSocketAddress("10.0.0.1", 9042)), "datacenter1")
 *     .keyspace("agents")
 *     .build();
 * }</pre>
 *
 * <h2>Design: one partition per session</h2>
 * Everything a session owns lives in one partition of {@code session_data}, keyed by (namespace, session id)
 * (guarantee 19 of docs/guarantees.md): the session record, the log's {@code head}, the writer-fencing claim and the
 * seq through which retention cut the log ({@code cut_seq}) in static columns, events (clustered by their zero-padded
 * seq), one id row per event (its id → its seq), runs, tool
 * calls, summaries, checkpoints and model-call audit rows. Every write (an append, a session or run upsert, a metadata
 * merge, a cut, a tool-call registration, resolution or deadline change, an audit row, a whole step, a retention
 * deletion or cut) is <b>one conditional batch on that partition</b>:
 * it reads the head and the stored events with the write's ids, decides with the shared rules of
 * {@code dev.sessionstore.spi} what to write, and commits {@code IF head = <the head it read>} with a new head. The
 * lightweight transaction (Paxos) makes the read-decide-write linearizable per session: gapless seqs, all-or-nothing
 * batches and steps, expected-seq checks and idempotent replays (ids are checked before seqs, so a retry returns the
 * stored seqs). An instance's next write to a session it wrote last may skip that read: it assumes the head and
 * header its own write left and that the write's ids are new, and makes both conditions of its batch ({@code IF head
 * = <assumed>} and each id row {@code IF NOT EXISTS}); when either fails, it reads and plans again. So a session's
 * appends from one instance cost one Paxos round each, and from several instances in turn, a failed round more.
 * Writes commit at {@code QUORUM} with {@code SERIAL} conditions and reads run at {@code QUORUM}, so what
 * a call returned is on a quorum of replicas and visible to the next read; all three levels are configurable.
 *
 * <p>So a tool call's resolution is a compare-and-set by construction: the attempt read the call pending, and its
 * batch applies only if no write reached the partition since; of any number of resolvers in any number of processes
 * exactly one applies, and the others re-read the call resolved (a replay or a stale resolve). A due call (its
 * deadline reached by the store clock) is expired by the same kind of batch by the first read, step or sweep that
 * meets it, so an expiry, once seen, is what every later read sees. Writer fencing is the same: a claim is a
 * conditional write of the partition's token (one above the one it read, never cleared, not even by a deletion, so
 * tokens of a session id only grow), and a step checks its token against the header it read and commits on the same
 * head, so a claim in between fails the step's batch, which re-reads and is refused.
 *
 * <h2>What spans partitions, and how it stays consistent</h2>
 * <ul>
 *   <li><b>Listing</b> ({@code session_index}, 16 buckets per namespace): an id is indexed, idempotently, before its
 *       partition is first written, and unindexed after the partition is deleted. Listing reads the ids, then the
 *       sessions' partitions, and shows only sessions whose partition holds one: a crash between the two writes
 *       leaves an id that shows nothing, never a broken or missing session. Listing reads the whole namespace (its
 *       cost grows with the number of sessions, not with the page).</li>
 *   <li><b>Names</b> ({@code session_names}): a name is claimed with a lightweight transaction before the partition
 *       takes it and released after the partition gave it up. The partition is the truth: a lookup by name checks
 *       that the session still holds it, and a claim left by a crash is taken over with a condition on its stale
 *       owner. Known gap: a rename racing the takeover of its own stale claim can, in that window, leave two sessions
 *       with one name.</li>
 *   <li><b>Tenants</b>: a tenant is a column of the session; deleting by tenant lists the namespace and deletes each
 *       session as {@code delete} does (each deletion idempotent; a crash midway leaves whole sessions, and repeating
 *       the call finishes).</li>
 *   <li><b>Deletion</b>: one conditional batch on the partition (its session columns cleared, every row of it
 *       deleted, a new head), so a concurrent write lands wholly before (and is deleted) or after (and re-creates the
 *       session); heads are time-based ids, never reused, so no write read before a deletion passes its condition
 *       after it. The listing index and the name claim follow, as above.</li>
 *   <li><b>Global checkpoints</b> ({@code global_checkpoints}): one partition per name, written with lightweight
 *       transactions only, so puts and deletes of one name are ordered and a delete says truly whether it removed
 *       one. Session checkpoints are rows of the session's partition and go with it.</li>
 *   <li><b>Deadlines</b> ({@code deadlines}, one partition per hour of the store clock, and {@code deadline_hours}):
 *       a step that sets a deadline first writes a hint row in the deadline's hour, then the hour (plain, idempotent
 *       writes), then its batch. The call's row is the truth: every {@link Builder#sweepInterval} each store instance
 *       reads the due hints and expires each call through the call's own conditional batch, which applies only if
 *       the call is still pending with a deadline the clock has reached; the first instance to get there fires it,
 *       whichever process set it. A crash before the batch leaves a hint of a deadline never set, which a sweep drops;
 *       an hour is dropped only once past and empty, at the write timestamp of the moment before its hints were
 *       read, so a hint written into it later keeps it.</li>
 *   <li><b>Old audit rows</b>: removed by one conditional batch per session on the head it read (a turn recorded
 *       again since makes it read again); across sessions, through the listing index, one session at a time
 *       (repeating a call cut short finishes it).</li>
 *   <li><b>Stored values</b> ({@code dev.sessionstore.spi.StoredValues}, for re-encryption under a new key): a scan
 *       walks each table holding values in token order, one kind of value at a time, resumable from its cursor (the
 *       last value returned); no lock or state is held between pages. A rewrite is a lightweight transaction on the
 *       value's own row, {@code IF <value> = <expected>}, that also sets a new head: Paxos orders it with the
 *       session's conditional batches, and a step that read the partition before it fails its condition and re-reads,
 *       so it cannot write back the value it had read (a tool call's resolution rewrites the whole row). A global
 *       checkpoint is rewritten {@code IF data = <expected>}. One Paxos round per rewritten value, no read.</li>
 *   <li><b>Forks</b>: a fork is a partition of its own, created by one conditional batch that copies what the fork
 *       takes from its parent (events up to the fork point, the summaries, runs and tool calls of that prefix, the
 *       checkpoints), read from the parent in one consistent view; so a fork is whole or absent, and owns its copies
 *       (cutting or deleting the parent never changes it). A fork costs a copy of its prefix, not constant time, and
 *       the prefix must fit one batch ({@link Builder#maxMutationBytes}, else the fork is refused before anything is
 *       written). A fork reading its parent's partition up to the fork point would be constant time, but every cut
 *       and deletion of the parent would then have to keep that prefix for its forks.</li>
 *   <li><b>Archives</b>: an export is one consistent view of the partition, with its cut point; an import is one
 *       conditional batch that creates the partition whole, its cut point kept (the same size bound as a fork), after
 *       the listing index, the deadline hints and the name claim. Global checkpoints are listed through
 *       {@code global_checkpoint_names}, written before each checkpoint and never removed (a listed name whose
 *       checkpoint is gone is skipped).</li>
 *   <li><b>Retention</b> ({@link Builder#retention}, {@link SessionStore#retention()}): through the listing index,
 *       session by session, each judged by the shared rules against the head its batch is conditioned on, so a write
 *       landing meanwhile makes it judge again. An idle session is deleted as above; old audit rows go as above; old
 *       chapters are cut by one batch: a range tombstone over the event rows from the log's start through the
 *       chapter's end, a row tombstone per cut event's id row, the links of tool calls to cut events dropped, and the
 *       header's {@code cut_seq} (id rows that do not fit that batch go in later ones). A cut costs a read of the
 *       cut events' ids and a write in proportion to them, once;
 *       after it, every read of the log (a page, a revival, a chapter, a fork's copy, an export, a truncation's tail)
 *       starts its slice after {@code cut_seq}, so no read walks the cut rows or their tombstones (a page starts
 *       where this instance last saw the log start, checked by the {@code cut_seq} its rows carry: one request as
 *       before; an instance that has not seen a cut walks it once). Of several instances applying a policy, on
 *       demand or on their schedules, the one whose batch applied does each session and counts it, so reports add up
 *       to what was removed. Forks own copies and keep what they show; a fork's log starts where its parent's did.
 *       A schedule is the namespace's ({@code retention_sweeps}: when it was last swept, claimed with a lightweight
 *       transaction once an interval has passed), so instances sweep once per interval between them, also across
 *       restarts.</li>
 *   <li><b>Search</b> ({@link SessionStore#search()}, Cassandra 5.0 or later): each event row carries
 *       {@code search_terms}, the set of its payload's words and their prefixes of up to 8 code points, written in
 *       the row's own insert (so in the batch that appends, forks or imports it) and rewritten with the payload by a
 *       stored-value rewrite; a storage-attached index ({@code session_data_search}) covers the set. A query is one
 *       statement with one {@code CONTAINS} per word: scoped to a session it reads that partition's matching rows;
 *       any other scope reads the namespace's matching rows across the cluster (the index is local to each node, so
 *       every node answers) and keeps the tenant's or metadata's by the partition's static columns. Truncation,
 *       cuts and deletion delete rows, so their entries go with them. A keyspace created before schema version 6
 *       gains the column and index on upgrade, but rows written before are not indexed (they hold no entries) and
 *       are not found. Before Cassandra 5.0 the index cannot be created: the store opens without
 *       {@link dev.sessionstore.Capability#SEARCH}.</li>
 * </ul>
 *
 * <h2>Outcomes</h2>
 * A write whose conditional batch timed out or lost its connection may have been applied: the store settles it
 * within its retry timeout with reads at the serial consistency (which finish or supersede the write still in flight)
 * and returns the stored result, or throws {@link dev.sessionstore.OutcomeUnknownException} (retrying with the same
 * ids is safe). A write that lost the race for the partition to another writer is re-planned and retried, with
 * growing, jittered pauses, until the retry timeout; then it fails as retryable, having written nothing.
 *
 * <h2>Contention and batch sizes</h2>
 * Writes of one store instance to one session queue in process (a fair lock per session), so threads of one process
 * never race each other's Paxos rounds; several processes writing one session do race, and back off. A batch is one
 * Cassandra mutation, which the server limits to half its {@code commitlog_segment_size} (16 MiB by default); the store
 * rejects a larger write before writing anything ({@link Builder#maxMutationBytes}, default 12 MiB, also under the
 * default CQL message limit). Single-partition
 * batches are not subject to {@code batch_size_fail_threshold}.
 *
 * <h2>Waiting reads</h2>
 * A waiting read wakes at once for appends by the same store instance, and polls at {@link Builder#pollInterval}
 * (default 100 ms) for other processes' appends.
 */
public final class CassandraSessionStore {

  private static final Pattern IDENTIFIER = Pattern.compile("[a-z][a-z0-9_]{0,47}");

  private CassandraSessionStore() {
  }

  /** A builder with the defaults described on each setter. */
  public static Builder builder() {
    return new Builder();
  }

  /** Configures a Cassandra store. Not thread-safe; may build any number of stores. */
  public static final class Builder {

    private List<InetSocketAddress> contactPoints;
    private String localDatacenter;
    private CqlSession session;
    private String keyspace = "session_store";
    private String namespace = "default";
    private int replicationFactor = 3;
    private boolean createSchema = true;
    private ConsistencyLevel writeConsistency = DefaultConsistencyLevel.QUORUM;
    private ConsistencyLevel serialConsistency = DefaultConsistencyLevel.SERIAL;
    private ConsistencyLevel readConsistency = DefaultConsistencyLevel.QUORUM;
    private Clock clock = Clock.systemUTC();
    private Duration retryTimeout = Duration.ofSeconds(10);
    private Duration pollInterval = Duration.ofMillis(100);
    private long maxMutationBytes = 12L * 1024 * 1024;
    private Duration sweepInterval = Duration.ofSeconds(1);
    private boolean modelCallAudit;
    private RetentionPolicy retentionPolicy;
    private Duration retentionInterval;

    private Builder() {
    }

    /**
     * The nodes to connect to and the local datacenter's name; the store opens its own driver session and closes it
     * when closed.
     */
    public Builder contactPoints(List<InetSocketAddress> points, String datacenter) {
      this.contactPoints = List.copyOf(require("contactPoints", points));
      this.localDatacenter = require("localDatacenter", datacenter);
      return this;
    }

    /** A driver session the caller owns (and closes): the store uses it and never closes it. */
    public Builder session(CqlSession driverSession) {
      this.session = require("session", driverSession);
      return this;
    }

    /** The keyspace holding the store's tables. Default {@code session_store}. */
    public Builder keyspace(String name) {
      this.keyspace = identifier("keyspace", name);
      return this;
    }

    /**
     * The namespace inside the keyspace: stores with different namespaces share tables but never see each other's
     * sessions. Default {@code default}.
     */
    public Builder namespace(String name) {
      this.namespace = require("namespace", name);
      return this;
    }

    /** The replication factor of a keyspace the store creates ({@code SimpleStrategy}). Default 3. */
    public Builder replicationFactor(int factor) {
      if (factor < 1) {
        throw new InvalidArgumentException("replicationFactor", "must be at least 1, not " + factor);
      }
      this.replicationFactor = factor;
      return this;
    }

    /**
     * Whether the store creates its keyspace and tables when missing (default true). With false, an operator creates
     * them with the DDL of the adapter's {@code Schema} class; the store checks the schema version either way.
     */
    public Builder createSchema(boolean create) {
      this.createSchema = create;
      return this;
    }

    /** The consistency writes commit at. Default {@code QUORUM}. */
    public Builder writeConsistency(ConsistencyLevel level) {
      this.writeConsistency = require("writeConsistency", level);
      return this;
    }

    /** The consistency of conditions and of reads that settle an unknown outcome. Default {@code SERIAL}. */
    public Builder serialConsistency(ConsistencyLevel level) {
      this.serialConsistency = require("serialConsistency", level);
      return this;
    }

    /** The consistency reads run at. Default {@code QUORUM}. */
    public Builder readConsistency(ConsistencyLevel level) {
      this.readConsistency = require("readConsistency", level);
      return this;
    }

    /** The clock records are stamped with. Default {@link Clock#systemUTC()}. */
    public Builder clock(Clock storeClock) {
      this.clock = require("clock", storeClock);
      return this;
    }

    /** How long a write retries lost races and settles an unknown outcome before it gives up. Default 10 s. */
    public Builder retryTimeout(Duration timeout) {
      this.retryTimeout = positive("retryTimeout", timeout);
      return this;
    }

    /** How often a waiting read looks for other processes' appends. Default 100 ms. */
    public Builder pollInterval(Duration interval) {
      this.pollInterval = positive("pollInterval", interval);
      return this;
    }

    /**
     * How often the store looks for tool-call deadlines that have come, to expire their calls without waiting for a
     * read: every instance sweeps, and the first to find a call due expires it. Default 1 s.
     */
    public Builder sweepInterval(Duration interval) {
      this.sweepInterval = positive("sweepInterval", interval);
      return this;
    }

    /**
     * Whether the store records the model-call audit ({@link SessionStore#modelCalls()}): rows of the session's
     * partition, written with the step that carries them. Default false: steps' audit rows are not stored.
     */
    public Builder modelCallAudit(boolean enabled) {
      this.modelCallAudit = enabled;
      return this;
    }

    /**
     * Applies {@code policy} once per {@code interval} of the store clock ({@link dev.sessionstore.Retention}), on a
     * daemon thread of the store's, until the store is closed. Default: no schedule; {@link SessionStore#retention()}
     * applies policies on demand either way. The schedule is the namespace's, held by the cluster: the time of the
     * last sweep is recorded there, and of all instances built with a schedule, the one that claims the next sweep
     * (a lightweight transaction, once an interval has passed since the last, looked for every quarter interval) runs
     * it; so the namespace is swept once per interval between them, and an instance built after a restart sweeps as
     * soon as the last sweep is an interval old. Within a sweep each session is deleted, cut or cleaned by one
     * conditional batch on its partition, so sweeps and on-demand applications never do a session twice. Give every
     * instance the same policy. The interval is bounded as on every adapter ({@link RetentionRules#requireInterval}):
     * at least 10 ms and at most 1 hour.
     *
     * @throws InvalidArgumentException naming {@code retentionPolicy} if it is null or retention was already set, or
     *                                  {@code retentionInterval} if it is null or out of range (10 ms to 1 hour)
     */
    public Builder retention(RetentionPolicy policy, Duration interval) {
      if (retentionPolicy != null) {
        throw new InvalidArgumentException("retentionPolicy", "was already set to " + retentionPolicy
            + "; a store applies one policy on schedule");
      }
      RetentionPolicy checked = require("retentionPolicy", policy);
      this.retentionInterval = RetentionRules.requireInterval(interval);
      this.retentionPolicy = checked;
      return this;
    }

    /**
     * The largest write (one conditional batch) the store sends; a larger one is rejected before anything is written.
     * Default 12 MiB, under Cassandra's default limits: a mutation of half the {@code commitlog_segment_size} (32 MiB)
     * and a CQL message of {@code native_transport_max_message_size} (unset, at most 2.5 % of the node's heap: 12.8 MiB
     * with 512 MiB); raise them together. A
     * checkpoint of {@link dev.sessionstore.Limits#MAX_CHECKPOINT_BYTES} needs more than 16 MiB here, so a
     * {@code commitlog_segment_size} of 64 MiB and a larger message size.
     */
    public Builder maxMutationBytes(long bytes) {
      if (bytes < 64 * 1024) {
        throw new InvalidArgumentException("maxMutationBytes", "must be at least 64 KiB, not " + bytes);
      }
      this.maxMutationBytes = bytes;
      return this;
    }

    /**
     * A store on this configuration, its schema created or checked.
     *
     * @throws InvalidArgumentException naming {@code session} if neither a session nor contact points were given
     * @throws StoreFailureException    if the cluster cannot be reached (retryable; the message names the contact
     *                                  points, the cause is the driver's exception, such as its
     *                                  {@code AllNodesFailedException}) or the schema is unusable
     */
    public SessionStore build() {
      if (session == null && contactPoints == null) {
        throw new InvalidArgumentException("session", "set a driver session or contact points");
      }
      boolean owns = session == null;
      CqlSession driverSession = owns ? connect() : session;
      String replication = "{'class': 'SimpleStrategy', 'replication_factor': " + replicationFactor + "}";
      StoreSettings settings = new StoreSettings(driverSession, owns, keyspace, namespace, replication, createSchema,
          writeConsistency, serialConsistency, readConsistency, clock, retryTimeout, pollInterval, maxMutationBytes,
          sweepInterval, modelCallAudit, retentionPolicy, retentionInterval);
      try {
        return ValidatingSessionStore.wrap(new CassandraStore(settings));
      } catch (RuntimeException e) {
        if (owns) {
          driverSession.close();
        }
        throw e;
      }
    }

    private CqlSession connect() {
      try {
        return CqlSession.builder().addContactPoints(contactPoints).withLocalDatacenter(localDatacenter).build();
      } catch (DriverException e) {
        throw new StoreFailureException("cannot connect to Cassandra at " + contactPoints + " (datacenter "
            + localDatacenter + "): " + e.getMessage(), true, e);
      }
    }

    private static <T> T require(String field, T value) {
      if (value == null) {
        throw new InvalidArgumentException(field, "must not be null");
      }
      return value;
    }

    private static String identifier(String field, String value) {
      if (!IDENTIFIER.matcher(require(field, value)).matches()) {
        throw new InvalidArgumentException(field, "must be a lower-case CQL identifier, not " + value);
      }
      return value;
    }

    private static Duration positive(String field, Duration value) {
      if (require(field, value).isNegative() || value.isZero()) {
        throw new InvalidArgumentException(field, "must be positive, not " + value);
      }
      return value;
    }
  }
}
