package dev.sessionstore.cassandra.internal;

import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.uuid.Uuids;
import dev.sessionstore.OutcomeUnknownException;
import dev.sessionstore.Session;
import dev.sessionstore.SessionPage;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Sessions;
import dev.sessionstore.Step;
import dev.sessionstore.WriterClaim;
import dev.sessionstore.cassandra.internal.Rows.Header;
import dev.sessionstore.spi.IdOrder;
import dev.sessionstore.spi.SessionCursor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Sessions on Cassandra: writes are steps on the session's partition ({@link StepWriter}); lookups read the
 * partition's session columns; listing reads the namespace's {@link SessionIndex} and the sessions it names, and
 * filters, orders and pages them here with the shared rules ({@link SessionQuery#matches}, {@link SessionCursor}).
 * A listing reads every session of the namespace: its cost grows with the namespace, not with the page. A query by
 * expiry on a keyspace with the expiry index ({@link Schema#EXPIRY_INDEX}) reads only the sessions the index finds
 * expiring before its bound.
 */
final class CassandraSessions implements Sessions {

  /** The pause between serial reads that fail while a deletion's outcome is settled. */
  private static final long SETTLE_PAUSE_NANOS = 50_000_000;

  private static final Comparator<Session> LISTING_ORDER = Comparator.comparing(Session::createdAt)
      .thenComparing(Session::id, IdOrder.BY_CODE_POINT);

  private final Cql cql;
  private final PartitionReader reader;
  private final StepWriter writer;
  private final SessionIndex index;
  private final NameClaims names;
  private final SessionQueue queue;
  private final SessionWaiters waiters;
  private final WriterFences fences;
  private final String ns;
  private final boolean expiryIndexed;

  CassandraSessions(Cql cql, PartitionReader reader, StepWriter writer, SessionIndex index, NameClaims names,
      SessionQueue queue, SessionWaiters waiters, boolean expiryIndexed) {
    this.expiryIndexed = expiryIndexed;
    this.fences = new WriterFences(cql, reader, queue);
    this.cql = cql;
    this.reader = reader;
    this.writer = writer;
    this.index = index;
    this.names = names;
    this.queue = queue;
    this.waiters = waiters;
    this.ns = cql.settings.namespace();
  }

  @Override
  public Session save(SessionWrite write) {
    return writer.commit(Step.builder(write.id()).session(write).build(), false).session();
  }

  @Override
  public Session mergeMetadata(String sessionId, Map<String, String> patch) {
    return writer.commit(Step.builder(sessionId).mergeMetadata(patch).build(), true).session();
  }

  @Override
  public Optional<Session> find(String sessionId) {
    return Optional.ofNullable(read(() -> reader.header(sessionId, false).session()));
  }

  @Override
  public Optional<Session> findByName(String name) {
    return read(() -> names.owner(name).flatMap(this::find).filter(session -> name.equals(session.name())));
  }

  @Override
  public SessionPage list(SessionQuery query) {
    SessionCursor from = query.cursor() == null ? null : SessionCursor.decode(query.cursor());
    List<Session> matching = read(() -> reader.sessions(candidates(query))).stream()
        .filter(query::matches)
        .filter(session -> from == null || from.precedes(session))
        .sorted(LISTING_ORDER)
        .skip(query.offset())
        .toList();
    int limit = query.limit().orElse(Integer.MAX_VALUE);
    if (matching.size() <= limit) {
      return new SessionPage(matching, Optional.empty());
    }
    List<Session> items = matching.subList(0, limit);
    return new SessionPage(items, Optional.of(SessionCursor.after(items.get(limit - 1)).encode()));
  }

  /**
   * The ids a listing of {@code query} reads: those the expiry index finds for a query by expiry when the keyspace has
   * it, else every id of the namespace's {@link SessionIndex}.
   */
  private List<String> candidates(SessionQuery query) {
    if (query.expiresBefore() == null || !expiryIndexed) {
      return index.ids();
    }
    List<String> ids = new ArrayList<>();
    for (Row row : cql.read(cql.expiringBefore.bind(Micros.bound(query.expiresBefore()), ns))) {
      ids.add(row.getString(0));
    }
    return ids;
  }

  @Override
  public List<String> listResumable() {
    return read(() -> reader.sessions(index.ids())).stream()
        .filter(Session::resumesEagerly)
        .map(Session::id)
        .sorted(IdOrder.BY_CODE_POINT)
        .toList();
  }

  @Override
  public Session fork(String sessionId, long atSeq) {
    return fork(sessionId, atSeq, UUID.randomUUID().toString());
  }

  @Override
  public Session fork(String sessionId, long atSeq, String newSessionId) {
    return writer.fork(sessionId, atSeq, newSessionId);
  }

  /**
   * Empties the partition in one conditional batch on the head read just before (Cassandra has no conditional
   * partition deletion): the session columns are cleared, the head replaced, every event, id, run, checkpoint and
   * summary row deleted. A concurrent write lands wholly before (and is deleted) or after (and re-creates the
   * session). Then the id is unindexed and the name released. A batch whose outcome is unknown is settled by a serial
   * read of the head: ours (deleted), the one it expected (not applied: tried again), or another writer's (unknown).
   */
  @Override
  public boolean delete(String sessionId) {
    return deleteIf(sessionId, header -> true);
  }

  /**
   * Deletes the session as {@link #delete} does if {@code judge} says so of the partition as read just before the
   * deletion's batch, which applies only on that head: a write landing in between makes it read and judge again.
   * Returns whether this call deleted it.
   */
  boolean deleteIf(String sessionId, Predicate<Header> judge) {
    return queue.run(sessionId, () -> {
      while (true) {
        Header header = read(() -> reader.header(sessionId, false));
        if (!header.exists() || !read(() -> judge.test(header))) {
          return false;
        }
        UUID newHead = Uuids.timeBased();
        BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.LOGGED)
            .addStatement(cql.writeHeader.bind(newHead, null, null, null, null, null, null, null, null, null, null,
                null, null, null, ns, sessionId, header.head()));
        for (String kind : Rows.KINDS) {
          batch.addStatement(cql.deleteKind.bind(ns, sessionId, kind));
        }
        boolean applied = deleted(sessionId, batch.build(), header.head(), newHead);
        if (applied) {
          index.removeAfterDelete(sessionId);
          if (header.session().name() != null) {
            names.releaseAfterCommit(header.session().name(), sessionId);
          }
          waiters.signal(sessionId);
          return true;
        }
      }
    });
  }

  /** Whether the deletion batch was applied, settling an unknown outcome. */
  private boolean deleted(String sessionId, BatchStatement batch, UUID expected, UUID newHead) {
    RuntimeException unknown;
    try {
      return cql.write(batch).wasApplied();
    } catch (RuntimeException e) {
      if (!DriverFailures.outcomeUnknown(e)) {
        throw DriverFailures.failed("deleting session " + sessionId, e);
      }
      unknown = e;
    }
    long deadline = System.nanoTime() + cql.settings.retryTimeout().toNanos();
    while (System.nanoTime() - deadline < 0) {
      try {
        UUID head = reader.header(sessionId, true).head();
        if (newHead.equals(head)) {
          return true;
        }
        if (Objects.equals(expected, head)) {
          return false;
        }
        break;
      } catch (RuntimeException e) {
        if (!DriverFailures.isDriverFailure(e)) {
          throw e;
        }
        LockSupport.parkNanos(SETTLE_PAUSE_NANOS);
      }
    }
    throw new OutcomeUnknownException("the outcome of deleting session " + sessionId + " is unknown; deleting it "
        + "again is safe", unknown);
  }

  @Override
  public WriterClaim claim(String sessionId, String ownerId) {
    return fences.claim(sessionId, ownerId);
  }

  @Override
  public Optional<WriterClaim> currentClaim(String sessionId) {
    return fences.current(sessionId);
  }

  @Override
  public int deleteByTenant(String tenant) {
    List<String> ids = new ArrayList<>();
    for (Session session : read(() -> reader.sessions(index.ids()))) {
      if (tenant.equals(session.tenant())) {
        ids.add(session.id());
      }
    }
    int deleted = 0;
    for (String id : ids) {
      if (delete(id)) {
        deleted++;
      }
    }
    return deleted;
  }

  private static <T> T read(Supplier<T> read) {
    return Reads.run(read);
  }
}
