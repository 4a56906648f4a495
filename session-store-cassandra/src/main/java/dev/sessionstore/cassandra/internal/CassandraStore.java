package dev.sessionstore.cassandra.internal;

import dev.sessionstore.Archives;
import dev.sessionstore.Capability;
import dev.sessionstore.Checkpoints;
import dev.sessionstore.EventLog;
import dev.sessionstore.ModelCallAudit;
import dev.sessionstore.Retention;
import dev.sessionstore.Runs;
import dev.sessionstore.Search;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Sessions;
import dev.sessionstore.Step;
import dev.sessionstore.StepOutcome;
import dev.sessionstore.Summaries;
import dev.sessionstore.ToolCalls;
import dev.sessionstore.spi.StoreEventHub;
import dev.sessionstore.spi.StoreEventSource;
import dev.sessionstore.spi.StoreEventSubscription;
import dev.sessionstore.spi.StoreEvents;
import dev.sessionstore.spi.StoredValues;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Cassandra {@link SessionStore}; build it with {@link dev.sessionstore.cassandra.CassandraSessionStore#builder()},
 * which describes the data model and the guarantees.
 */
public final class CassandraStore implements SessionStore, StoreEventSource {

  private static final Logger LOG = LoggerFactory.getLogger(CassandraStore.class);

  /**
   * What the adapter supports on a keyspace without the search index (before Cassandra 5.0): every capability but
   * search. Retention: a log may start after seq 1 once its oldest chapters are cut ({@link HeadCut}), and archives
   * of cut sessions import as they are. Stored-value rewrite: a scan walks each table in token order and a rewrite is
   * one lightweight transaction on the value's row ({@link CassandraStoredValues}).
   * Cross-process wake-up is by polling ({@code pollInterval}).
   */
  private static final Set<Capability> WITHOUT_SEARCH = Collections.unmodifiableSet(EnumSet.of(
      Capability.WAITING_READS, Capability.CROSS_PROCESS_WAKEUP, Capability.TRUNCATION, Capability.TENANTS,
      Capability.CHECKPOINTS, Capability.SUMMARIES, Capability.TOOL_CALLS, Capability.DEADLINES,
      Capability.DURABLE_DEADLINES, Capability.WRITER_FENCING, Capability.MODEL_CALL_AUDIT,
      Capability.FORKS, Capability.ARCHIVES, Capability.RETENTION, Capability.STORED_VALUE_REWRITE));

  /** Every capability: {@link #WITHOUT_SEARCH} and search ({@link CassandraSearch}), where the index exists. */
  private static final Set<Capability> EVERY = withSearch();

  private final StoreSettings settings;
  private final StoreEventHub storeEvents = new StoreEventHub(failure -> LOG.warn(
      "session-store: a store event listener failed; its later failures are not logged", failure));
  private final SessionWaiters waiters;
  private final CassandraSessions sessions;
  private final CassandraEventLog events;
  private final CassandraRuns runs;
  private final CassandraCheckpoints checkpoints;
  private final CassandraSummaries summaries;
  private final StepWriter writer;
  private final CassandraToolCalls toolCalls;
  private final CassandraModelCallAudit modelCalls;
  private final CassandraArchives archives;
  private final DeadlineSweeper sweeper;
  private final CassandraStoredValues storedValues;
  private final CassandraRetention retention;
  private final CassandraSearch search;
  private final Set<Capability> capabilities;

  private static Set<Capability> withSearch() {
    EnumSet<Capability> every = EnumSet.copyOf(WITHOUT_SEARCH);
    every.add(Capability.SEARCH);
    return Collections.unmodifiableSet(every);
  }

  /**
   * A store on {@code settings}: creates or checks the schema, then prepares its statements.
   *
   * @throws dev.sessionstore.StoreFailureException if the schema is missing or newer than this code's
   */
  public CassandraStore(StoreSettings settings) {
    this.settings = settings;
    this.waiters = new SessionWaiters(storeEvents, "Cassandra keyspace " + settings.keyspace());
    Schema.prepare(settings.session(), settings.keyspace(), settings.replication(), settings.createSchema());
    Cql cql = new Cql(settings);
    PartitionReader reader = new PartitionReader(cql);
    SessionIndex index = new SessionIndex(cql);
    NameClaims names = new NameClaims(cql, reader);
    SessionQueue queue = new SessionQueue();
    this.writer = new StepWriter(cql, reader, names, index, queue, waiters, storeEvents);
    this.sessions = new CassandraSessions(cql, reader, writer, index, names, queue, waiters,
        Schema.expiryIndexed(settings.session(), settings.keyspace()));
    this.events = new CassandraEventLog(cql, reader, writer, new GroupCommit(writer, queue), waiters);
    this.runs = new CassandraRuns(reader, writer);
    this.checkpoints = new CassandraCheckpoints(cql, reader, writer);
    this.summaries = new CassandraSummaries(reader, writer);
    this.toolCalls = new CassandraToolCalls(cql, reader, writer, waiters);
    this.sweeper = new DeadlineSweeper(cql, writer, storeEvents);
    this.modelCalls = new CassandraModelCallAudit(cql, writer, index);
    this.archives = new CassandraArchives(cql, reader, writer, checkpoints, modelCalls);
    this.storedValues = new CassandraStoredValues(cql, queue, storeEvents);
    this.retention = new CassandraRetention(cql, reader, index, sessions, new HeadCut(cql, reader, writer),
        modelCalls);
    this.search = new CassandraSearch(cql);
    this.capabilities = Schema.searchable(settings.session(), settings.keyspace()) ? EVERY : WITHOUT_SEARCH;
    if (settings.retentionPolicy() != null) {
      retention.start(settings.retentionPolicy(), settings.retentionInterval());
    }
    LOG.debug("cassandra session store opened: {}", this);
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
  public StepOutcome commit(Step step) {
    return writer.write(step, false, Set.of()).outcome();
  }

  /**
   * Delivers this store's events to {@code listener}: retries of a write that lost the race for its session's
   * partition ({@code conflict}) or whose settling read failed ({@code connection}), unknown outcomes it settled, calls
   * its sweeper expired, waiting reads parked, and their wake latency after this instance's own writes.
   */
  @Override
  public StoreEventSubscription subscribe(StoreEvents listener) {
    return storeEvents.subscribe(listener);
  }

  /** The waiting reads of this store parked now. */
  @Override
  public int parkedReads() {
    return storeEvents.parkedReads();
  }

  /** This store's {@link StoredValues} ({@link Capability#STORED_VALUE_REWRITE}), else what the default answers. */
  @Override
  public <T> Optional<T> unwrap(Class<T> type) {
    return type == StoredValues.class ? Optional.of(type.cast(storedValues)) : SessionStore.super.unwrap(type);
  }

  @Override
  public Set<Capability> capabilities() {
    return capabilities;
  }

  /**
   * The store's search ({@link CassandraSearch}).
   *
   * @throws dev.sessionstore.UnsupportedCapabilityException if the keyspace has no search index (before Cassandra 5.0)
   */
  @Override
  public Search search() {
    if (!capabilities.contains(Capability.SEARCH)) {
      return SessionStore.super.search();
    }
    return search;
  }

  /** {@link Schema#VERSION}: the build created or migrated the keyspace to it, or refused to open. */
  @Override
  public OptionalInt schemaVersion() {
    return OptionalInt.of(Schema.VERSION);
  }

  /** The adapter and its target: keyspace and namespace. */
  @Override
  public String toString() {
    return "CassandraSessionStore[keyspace " + settings.keyspace() + ", namespace " + settings.namespace() + "]";
  }

  @Override
  public void close() {
    retention.close();
    sweeper.close();
    waiters.close();
    storeEvents.close();
    if (settings.ownsSession()) {
      settings.session().close();
    }
    LOG.debug("cassandra session store closed: {}", this);
  }
}
