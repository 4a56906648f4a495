package dev.sessionstore.cassandra.internal;

import com.datastax.oss.driver.api.core.cql.Row;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which session ids a namespace has, spread over {@link #BUCKETS} partitions of {@code session_index}: where a listing
 * starts. An id is indexed before its session's partition is first written and unindexed after the partition is
 * deleted, both idempotently; an indexed id whose partition holds no session (a crash between the two writes) is
 * skipped by every reader, so the index never shows a session that is not there and never hides one that is.
 */
final class SessionIndex {

  private static final Logger LOG = LoggerFactory.getLogger(SessionIndex.class);

  /** Partitions of the index per namespace: a listing reads all of them. */
  static final int BUCKETS = 16;

  private final Cql cql;
  private final String ns;

  SessionIndex(Cql cql) {
    this.cql = cql;
    this.ns = cql.settings.namespace();
  }

  void add(String sessionId) {
    cql.write(cql.indexSession.bind(ns, bucket(sessionId), sessionId));
  }

  /**
   * Unindexes a deleted session. The deletion is committed, so a failure here is only logged: the id stays indexed
   * with nothing behind it, which readers skip.
   */
  void removeAfterDelete(String sessionId) {
    try {
      cql.write(cql.unindexSession.bind(ns, bucket(sessionId), sessionId));
    } catch (RuntimeException e) {
      LOG.warn("deleted session {} stays in the listing index (readers skip it)", sessionId, e);
    }
  }

  /** Every indexed id, in no particular order. */
  List<String> ids() {
    List<String> ids = new ArrayList<>();
    for (int bucket = 0; bucket < BUCKETS; bucket++) {
      for (Row row : cql.read(cql.indexBucket.bind(ns, bucket))) {
        ids.add(row.getString(0));
      }
    }
    return ids;
  }

  private static int bucket(String sessionId) {
    return Math.floorMod(sessionId.hashCode(), BUCKETS);
  }
}
