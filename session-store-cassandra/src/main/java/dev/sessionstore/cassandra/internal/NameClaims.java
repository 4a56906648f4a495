package dev.sessionstore.cassandra.internal;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.sessionstore.Session;
import dev.sessionstore.spi.Failures;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Session names, unique per namespace across partitions: a name is claimed in {@code session_names} with a
 * lightweight transaction before a session's partition takes it, and released after the partition gave it up
 * (rename, deletion). The session's partition is the truth: a claim whose session no longer holds the name (a crash
 * between the two writes) is stale, and the next claimant takes it over with a condition on the stale owner.
 */
final class NameClaims {

  private static final Logger LOG = LoggerFactory.getLogger(NameClaims.class);

  private final Cql cql;
  private final PartitionReader reader;
  private final String ns;

  NameClaims(Cql cql, PartitionReader reader) {
    this.cql = cql;
    this.reader = reader;
    this.ns = cql.settings.namespace();
  }

  /**
   * Claims {@code name} for {@code sessionId}; a claim it holds already is kept.
   *
   * @throws dev.sessionstore.ConflictException if another session holds the name
   */
  void claim(String name, String sessionId) {
    while (true) {
      Row answer = cql.write(cql.claimName.bind(ns, name, sessionId)).one();
      if (answer.getBoolean("[applied]")) {
        return;
      }
      String owner = answer.getString("session_id");
      if (sessionId.equals(owner)) {
        return;
      }
      Session holder = reader.header(owner, true).session();
      if (holder != null && name.equals(holder.name())) {
        throw Failures.nameTaken(name);
      }
      if (cql.write(cql.takeOverName.bind(sessionId, ns, name, owner)).wasApplied()) {
        return;
      }
    }
  }

  /**
   * Releases {@code name} if {@code sessionId} holds it, after the session's partition gave it up: the write that did
   * is committed, so a failure here is only logged (the claim is stale, and the next claimant takes it over).
   */
  void releaseAfterCommit(String name, String sessionId) {
    try {
      cql.write(cql.releaseName.bind(ns, name, sessionId));
    } catch (RuntimeException e) {
      LOG.warn("session {} gave up name {}, whose claim stays until another session takes it over", sessionId,
          name, e);
    }
  }

  /** The session that claimed {@code name}, which may no longer hold it. */
  Optional<String> owner(String name) {
    Row row = cql.read(cql.nameOwner.bind(ns, name)).one();
    return row == null ? Optional.empty() : Optional.of(row.getString(0));
  }
}
