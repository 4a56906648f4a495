package dev.sessionstore.cassandra.internal;

import dev.sessionstore.cassandra.internal.Rows.Header;
import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The partition header each session had after this store instance's last write to it, which the session's next
 * write of this instance may assume instead of reading it. An assumed header is a guess that cannot do harm: the
 * write commits {@code IF head = <the assumed head>}, and every write to a partition, by any instance, replaces its
 * head with a new time-based id, so the condition holds only if no other write reached the partition since; when it
 * fails, the writer reads and plans again. At most {@value #MAX_SESSIONS} sessions are remembered; past that,
 * arbitrary ones are forgotten, and their next write reads first. Thread-safe; a session's entry is read and
 * replaced by that session's writer only ({@link SessionQueue}).
 */
final class KnownHeaders {

  /** The most sessions whose headers are kept: a few MiB for sessions with small metadata. */
  static final int MAX_SESSIONS = 10_000;

  private final ConcurrentHashMap<String, Header> headers = new ConcurrentHashMap<>();

  /** The header this instance's last write left in the session's partition; null when none is remembered. */
  Header get(String sessionId) {
    return headers.get(sessionId);
  }

  /** Remembers the header a write of this instance has just committed to the session's partition. */
  void remember(String sessionId, Header header) {
    if (headers.size() >= MAX_SESSIONS && !headers.containsKey(sessionId)) {
      Iterator<String> any = headers.keySet().iterator();
      if (any.hasNext()) {
        headers.remove(any.next());
      }
    }
    headers.put(sessionId, header);
  }

  /** Forgets the session's header: the next write reads it. */
  void forget(String sessionId) {
    headers.remove(sessionId);
  }
}
