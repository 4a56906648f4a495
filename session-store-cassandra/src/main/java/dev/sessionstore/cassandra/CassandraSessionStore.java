package dev.sessionstore.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.SessionStore;
import dev.sessionstore.cassandra.internal.CassandraStore;
import dev.sessionstore.cassandra.internal.StoreSettings;
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
 * (guarantee 19 of docs/guarantees.md): the session record and the log's {@code head} in static columns, events
 * (clustered by their zero-padded seq), one id row per event (its id → its seq) and runs. Every write (an append, a
 * session or run upsert, a metadata merge, a cut, a whole step) is <b>one conditional batch on that partition</b>:
 * it reads the head and the stored events with the write's ids, decides with the shared rules of
 * {@code dev.sessionstore.spi} what to write, and commits {@code IF head = <the head it read>} with a new head. The
 * lightweight transaction (Paxos) makes the read-decide-write linearizable per session: gapless seqs, all-or-nothing
 * batches and steps, expected-seq checks and idempotent replays (ids are checked before seqs, so a retry returns the
 * stored seqs). Writes commit at {@code QUORUM} with {@code SERIAL} conditions and reads run at {@code QUORUM}, so what
 * a call returned is on a quorum of replicas and visible to the next read; all three levels are configurable.
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
 *   <li>Forks and deadline sweeps: not built yet (see the capabilities).</li>
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
     * @throws dev.sessionstore.StoreFailureException if the cluster cannot be reached or the schema is unusable
     */
    public SessionStore build() {
      if (session == null && contactPoints == null) {
        throw new InvalidArgumentException("session", "set a driver session or contact points");
      }
      boolean owns = session == null;
      CqlSession driverSession = owns
          ? CqlSession.builder().addContactPoints(contactPoints).withLocalDatacenter(localDatacenter).build()
          : session;
      String replication = "{'class': 'SimpleStrategy', 'replication_factor': " + replicationFactor + "}";
      StoreSettings settings = new StoreSettings(driverSession, owns, keyspace, namespace, replication, createSchema,
          writeConsistency, serialConsistency, readConsistency, clock, retryTimeout, pollInterval, maxMutationBytes);
      try {
        return ValidatingSessionStore.wrap(new CassandraStore(settings));
      } catch (RuntimeException e) {
        if (owns) {
          driverSession.close();
        }
        throw e;
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
