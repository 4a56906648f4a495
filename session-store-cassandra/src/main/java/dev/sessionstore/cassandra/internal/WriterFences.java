package dev.sessionstore.cassandra.internal;

import com.datastax.oss.driver.api.core.uuid.Uuids;
import dev.sessionstore.FencedWriterException;
import dev.sessionstore.OutcomeUnknownException;
import dev.sessionstore.StoreFailureException;
import dev.sessionstore.WriterClaim;
import dev.sessionstore.cassandra.internal.Rows.Header;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * Writer fencing on Cassandra (guarantee 20 of docs/guarantees.md): a session's current claim is two static columns
 * of its partition, {@code fence_token} and {@code fence_owner}, which no write but a claim changes, not even a
 * deletion (it clears the session's columns and rows, not these), so tokens of a session id keep growing across its
 * deletion. A claim is one conditional write on the partition, {@code IF head = <read>}, that sets the token one
 * above the one it read and a new head; a step checks its token against the header it read
 * ({@link #check}) and commits on the same head condition, so a claim landing in between fails the step's batch,
 * which re-reads and is refused. The check is therefore atomic with the step's writes.
 *
 * <p>A claim whose outcome is unknown is settled by a serial read of the head: its own head means it was applied;
 * any other means it was not (a later write would have had to read it first, and no other write changes the token),
 * and it is tried again. A token issued by an attempt whose answer was lost is skipped, never reissued.
 */
final class WriterFences {

  private final Cql cql;
  private final PartitionReader reader;
  private final SessionQueue queue;
  private final String ns;

  WriterFences(Cql cql, PartitionReader reader, SessionQueue queue) {
    this.cql = cql;
    this.reader = reader;
    this.queue = queue;
    this.ns = cql.settings.namespace();
  }

  /**
   * Fails unless {@code fence} is empty or the token of {@code header}'s claim.
   *
   * @throws FencedWriterException naming the current claim
   */
  static void check(String sessionId, Header header, OptionalLong fence) {
    if (fence.isPresent() && fence.getAsLong() != header.fenceToken()) {
      throw new FencedWriterException(sessionId, fence.getAsLong(), header.fenceToken(), header.fenceOwner());
    }
  }

  /** A new claim of {@code sessionId} for {@code ownerId}, its token one above the current one. */
  WriterClaim claim(String sessionId, String ownerId) {
    return queue.run(sessionId, () -> {
      long deadline = System.nanoTime() + cql.settings.retryTimeout().toNanos();
      UUID pending = null;
      long pendingToken = 0;
      RuntimeException unknown = null;
      for (int round = 0; ; round++) {
        UUID head = null;
        long token = 0;
        try {
          Header header = reader.header(sessionId, unknown != null);
          if (pending != null && pending.equals(header.head())) {
            return new WriterClaim(sessionId, ownerId, pendingToken);
          }
          head = Uuids.timeBased();
          token = header.fenceToken() + 1;
          if (cql.write(cql.claimFence.bind(head, token, ownerId, ns, sessionId, header.head())).wasApplied()) {
            return new WriterClaim(sessionId, ownerId, token);
          }
          pending = null;
        } catch (RuntimeException e) {
          if (!DriverFailures.isDriverFailure(e)) {
            throw e;
          }
          if (head != null && DriverFailures.outcomeUnknown(e)) {
            pending = head;
            pendingToken = token;
            unknown = e;
          } else if (unknown == null) {
            throw DriverFailures.failed("claiming session " + sessionId, e);
          }
        }
        if (System.nanoTime() - deadline > 0) {
          if (unknown != null) {
            throw new OutcomeUnknownException("the outcome of claiming session " + sessionId + " is unknown; "
                + "claiming again is safe (it issues a greater token)", unknown);
          }
          throw new StoreFailureException("session " + sessionId + ": every claim lost the race for the partition "
              + "within " + cql.settings.retryTimeout() + "; nothing was written", true, null);
        }
        long maxMicros = Math.min(50_000, 500L << Math.min(round, 7));
        LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(maxMicros / 2, maxMicros + 1) * 1_000);
      }
    });
  }

  /** The session's current claim, or empty if it was never claimed. */
  Optional<WriterClaim> current(String sessionId) {
    Header header = Reads.run(() -> reader.header(sessionId, false));
    return header.fenceOwner() == null ? Optional.empty()
        : Optional.of(new WriterClaim(sessionId, header.fenceOwner(), header.fenceToken()));
  }
}
