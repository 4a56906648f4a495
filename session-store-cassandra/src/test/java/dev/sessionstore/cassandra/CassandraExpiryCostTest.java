package dev.sessionstore.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Session;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.cassandra.cluster.SharedCluster;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A query by expiry reads what the expiry index finds, not the namespace: each statement it runs is traced
 * ({@link TracedSession}) and its requests, result pages and the rows the replicas read are summed, with one expired
 * session among 20 and then among 200 (the others expire later, or never). The test fails when the large store's
 * count is more than the small one's plus one request, one page or 8 rows.
 */
class CassandraExpiryCostTest {

  private static final int SESSIONS_SMALL = 20;
  private static final int SESSIONS_LARGE = 200;
  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

  private static TracedSession traced;
  private static SessionStore store;

  @BeforeAll
  static void open() {
    traced = new TracedSession();
    store = traced.store(UUID.randomUUID().toString());
  }

  @AfterAll
  static void close() {
    if (store != null) {
      store.close();
    }
    if (traced != null) {
      traced.close();
    }
  }

  /** Sessions {@code from} to {@code to} (exclusive) that are not expired: every other one expires later. */
  private static void fill(int from, int to) {
    for (int session = from; session < to; session++) {
      SessionWrite write = SessionWrite.of("s" + session);
      store.sessions().save(session % 2 == 0 ? write.withExpiresAt(NOW.plusSeconds(session)) : write);
    }
  }

  @Test
  @DisplayName("A query by expiry reads no more rows and pages in a store ten times larger")
  void workDoesNotGrowWithTheStore() {
    store.sessions().save(SessionWrite.of("expired").withExpiresAt(NOW.minusSeconds(1)));
    fill(1, SESSIONS_SMALL);
    SessionQuery query = SessionQuery.all().expiresBefore(NOW).limit(100);
    assertThat(store.sessions().list(query).items()).extracting(Session::id).containsExactly("expired");
    TracedSession.Cost small = traced.measure(() -> store.sessions().list(query));
    fill(SESSIONS_SMALL, SESSIONS_LARGE);
    assertThat(store.sessions().list(query).items()).extracting(Session::id).containsExactly("expired");
    TracedSession.Cost large = traced.measure(() -> store.sessions().list(query));

    System.out.println("expiry query cost on " + SharedCluster.cluster().size() + " node(s): " + small + " at "
        + SESSIONS_SMALL + " sessions, " + large + " at " + SESSIONS_LARGE);
    assertThat(small.rows()).as("rows the traces show").isPositive();
    assertThat(large.rows()).as("rows read at " + SESSIONS_LARGE + " sessions, against " + small.rows() + " at "
        + SESSIONS_SMALL).isLessThanOrEqualTo(small.rows() + 8);
    assertThat(large.pages()).as("pages").isLessThanOrEqualTo(small.pages() + 1);
    assertThat(large.requests()).as("requests").isLessThanOrEqualTo(small.requests() + 1);
  }
}
