package dev.sessionstore.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.Capability;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Event;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.OutcomeUnknownException;
import dev.sessionstore.SessionStore;
import dev.sessionstore.StoreFailureException;
import dev.sessionstore.cassandra.FaultySession.Fault;
import dev.sessionstore.cassandra.cluster.SharedCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the kit cannot see of the Cassandra adapter, on the shared single node: group commit, settled unknown
 * outcomes, the mutation-size limit and the schema version check (a version-1 keyspace migrated to the current one,
 * retention's cut included).
 */
class CassandraSessionStoreTest {

  private final FaultySession faulty = new FaultySession(SharedCluster.session());
  private final List<SessionStore> stores = new ArrayList<>();

  private SessionStore store(CassandraSessionStore.Builder builder) {
    SessionStore store = builder.session(faulty.session()).keyspace("session_store_tests")
        .namespace(UUID.randomUUID().toString()).replicationFactor(SharedCluster.replicationFactor()).build();
    stores.add(store);
    return store;
  }

  private SessionStore store() {
    return store(CassandraSessionStore.builder());
  }

  @AfterEach
  void close() {
    stores.forEach(SessionStore::close);
  }

  @Test
  void sixteenThreadsOnOneSessionShareConditionalBatches() throws Exception {
    SessionStore store = store();
    store.sessions().save(dev.sessionstore.SessionWrite.of("hot"));
    int threads = 16;
    int perThread = 25;
    int before = faulty.batches.get();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<List<Long>>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        results.add(pool.submit(() -> {
          List<Long> seqs = new ArrayList<>();
          for (int i = 0; i < perThread; i++) {
            seqs.add(store.events().append("hot", NewEvent.of("msg").withId(thread + "-" + i)).seq());
          }
          return seqs;
        }));
      }
      List<Long> all = new ArrayList<>();
      for (Future<List<Long>> result : results) {
        all.addAll(result.get());
      }
      int appends = threads * perThread;
      int batches = faulty.batches.get() - before;
      System.out.println("group commit: " + appends + " appends from " + threads + " threads in " + batches
          + " conditional batches");
      assertThat(all).containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1, appends).boxed().toList());
      assertThat(store.events().lastSeq("hot")).isEqualTo(appends);
      assertThat(batches).as("conditional batches for %d appends", appends).isLessThan(appends / 2);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aStepThatCutsAndAppendsKeepsItsNewEventsAndReusesACutId() {
    SessionStore store = store();
    store.events().appendAll("s", List.of(NewEvent.of("a").withId("a"), NewEvent.of("b").withId("b"),
        NewEvent.of("c").withId("c")));

    dev.sessionstore.StepResult result = store.commit(dev.sessionstore.Step.builder("s").truncateFrom(2)
        .events(List.of(NewEvent.of("x").withId("x"), NewEvent.of("c-again").withId("c"))).build()).orElseThrow();

    assertThat(result.removed()).isEqualTo(2);
    assertThat(result.events()).extracting(Event::seq).containsExactly(2L, 3L);
    assertThat(store.events().read("s", dev.sessionstore.EventQuery.all()).items())
        .extracting(Event::id, Event::type, Event::seq)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("a", "a", 1L),
            org.assertj.core.groups.Tuple.tuple("x", "x", 2L), org.assertj.core.groups.Tuple.tuple("c", "c-again", 3L));
    assertThat(store.events().find("s", "b")).as("the cut event b").isEmpty();
    assertThat(store.events().find("s", "c")).map(Event::type).contains("c-again");
    assertThat(store.events().lastSeq("s")).isEqualTo(3);
  }

  @Test
  void anAppliedWriteWhoseAnswerWasLostIsSettledAndReturnsItsSeq() {
    SessionStore store = store();
    store.events().append("s", NewEvent.of("first").withId("e1"));
    faulty.failBatch(1, Fault.APPLIED_ANSWER_LOST);

    Event second = store.events().append("s", NewEvent.of("second").withId("e2"));

    assertThat(second.seq()).isEqualTo(2);
    assertThat(store.events().read("s", dev.sessionstore.EventQuery.all()).items()).extracting(Event::id)
        .containsExactly("e1", "e2");
  }

  @Test
  void aWriteThatWasNeverSentIsSettledAsNotAppliedAndWrittenOnce() {
    SessionStore store = store();
    faulty.failBatch(1, Fault.NOT_SENT);

    List<Event> stored = store.events().appendAll("s", List.of(NewEvent.of("a").withId("a"),
        NewEvent.of("b").withId("b")));

    assertThat(stored).extracting(Event::seq).containsExactly(1L, 2L);
    assertThat(store.events().lastSeq("s")).isEqualTo(2);
  }

  @Test
  void aDeletionWhoseAnswerWasLostIsSettledAsDone() {
    SessionStore store = store();
    store.sessions().save(dev.sessionstore.SessionWrite.of("s").withName("named"));
    store.events().append("s", NewEvent.of("a").withId("a"));
    faulty.failBatch(1, Fault.APPLIED_ANSWER_LOST);

    assertThat(store.sessions().delete("s")).as("delete after its answer was lost").isTrue();

    assertThat(store.sessions().find("s")).isEmpty();
    assertThat(store.events().lastSeq("s")).isZero();
    assertThat(store.sessions().findByName("named")).isEmpty();
    assertThat(store.sessions().save(dev.sessionstore.SessionWrite.of("other").withName("named")).name())
        .as("the name, free again").isEqualTo("named");
  }

  @Test
  void aGlobalCheckpointPutWhoseAnswerWasLostIsSettledAsDone() {
    SessionStore store = store();
    CheckpointKey key = CheckpointKey.global("g");
    store.checkpoints().put(key, new byte[] {1});
    faulty.failNextConditionalWrite(Fault.APPLIED_ANSWER_LOST);

    Checkpoint put = store.checkpoints().put(key, new byte[] {2});

    assertThat(store.checkpoints().get(key)).hasValueSatisfying(stored -> {
      assertThat(stored.data()).containsExactly(2);
      assertThat(stored.updatedAt()).isEqualTo(put.updatedAt());
    });
  }

  @Test
  void aGlobalCheckpointPutThatWasNeverSentIsWrittenAfterAll() {
    SessionStore store = store();
    CheckpointKey key = CheckpointKey.global("g");
    store.checkpoints().put(key, new byte[] {1});
    faulty.failNextConditionalWrite(Fault.NOT_SENT);

    store.checkpoints().put(key, new byte[] {2});

    assertThat(store.checkpoints().get(key)).map(Checkpoint::data).hasValueSatisfying(data ->
        assertThat(data).containsExactly(2));
  }

  @Test
  void aGlobalCheckpointDeletionThatWasNeverSentRunsAgainAndSaysItDeleted() {
    SessionStore store = store();
    CheckpointKey key = CheckpointKey.global("g");
    store.checkpoints().put(key, new byte[] {1});
    faulty.failNextConditionalWrite(Fault.NOT_SENT);

    assertThat(store.checkpoints().delete(key)).isTrue();
    assertThat(store.checkpoints().get(key)).isEmpty();
  }

  @Test
  void aGlobalCheckpointDeletionWhoseAnswerWasLostSaysItsOutcomeIsUnknown() {
    SessionStore store = store();
    CheckpointKey key = CheckpointKey.global("g");
    store.checkpoints().put(key, new byte[] {1});
    faulty.failNextConditionalWrite(Fault.APPLIED_ANSWER_LOST);

    assertThatThrownBy(() -> store.checkpoints().delete(key)).isInstanceOf(OutcomeUnknownException.class)
        .hasMessageContaining("whether by this call or by another is unknown");
    assertThat(store.checkpoints().get(key)).isEmpty();
  }

  @Test
  void aWriteLargerThanOneMutationIsRejectedBeforeAnythingIsWritten() {
    SessionStore store = store(CassandraSessionStore.builder().maxMutationBytes(64 * 1024));
    String big = "x".repeat(100_000);
    int before = faulty.batches.get();

    assertThatThrownBy(() -> store.events().append("s", NewEvent.of("big", Json.of("\"" + big + "\""))))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("maxMutationBytes of 65536");

    assertThat(faulty.batches.get()).as("batches sent").isEqualTo(before);
    assertThat(store.events().lastSeq("s")).isZero();
    assertThat(store.sessions().find("s")).isEmpty();
  }

  @Test
  void aVersionOneSchemaIsMigratedAndKeepsItsSessions() {
    String keyspace = "session_store_v1";
    var session = SharedCluster.session();
    session.execute("DROP KEYSPACE IF EXISTS " + keyspace);
    session.execute("CREATE KEYSPACE " + keyspace + " WITH replication = {'class': 'SimpleStrategy', "
        + "'replication_factor': " + SharedCluster.replicationFactor() + "}");
    // the layout of version 1, as it first shipped
    session.execute("CREATE TABLE " + keyspace + ".schema_version (component text PRIMARY KEY, version int)");
    session.execute("CREATE TABLE " + keyspace + ".session_data (ns text, session_id text, kind text, key text, "
        + "head timeuuid static, last_seq bigint static, s_name text static, s_tenant text static, "
        + "s_agent text static, s_status text static, s_settings text static, "
        + "s_metadata frozen<map<text, text>> static, s_fork_parent text static, s_fork_seq bigint static, "
        + "s_created bigint static, s_updated bigint static, seq bigint, event_id text, type text, run_id text, "
        + "agent_id text, parent_id text, payload text, ts bigint, status text, usage text, error text, "
        + "created bigint, updated bigint, saved timeuuid, PRIMARY KEY ((ns, session_id), kind, key))");
    session.execute("CREATE TABLE " + keyspace + ".session_index (ns text, bucket int, session_id text, "
        + "PRIMARY KEY ((ns, bucket), session_id))");
    session.execute("CREATE TABLE " + keyspace + ".session_names (ns text, name text, session_id text, "
        + "PRIMARY KEY ((ns, name)))");
    session.execute("INSERT INTO " + keyspace + ".schema_version (component, version) VALUES ('session-store', 1)");
    session.execute("INSERT INTO " + keyspace + ".session_data (ns, session_id, kind, key, head, last_seq, "
        + "s_status, s_settings, s_metadata, s_created, s_updated, seq, event_id, type, payload, ts) VALUES "
        + "('old', 's', 'e', '0000000000000000001', now(), 1, 'active', '{}', {}, 1, 1, 1, 'e1', 't', '{}', 1)");
    session.execute("INSERT INTO " + keyspace + ".session_data (ns, session_id, kind, key, seq) VALUES "
        + "('old', 's', 'i', 'e1', 1)");
    // indexed as version 1 indexed it: in bucket floorMod(id.hashCode(), 16), where listing and retention find it
    session.execute("INSERT INTO " + keyspace + ".session_index (ns, bucket, session_id) VALUES ('old', "
        + Math.floorMod("s".hashCode(), 16) + ", 's')");

    SessionStore store = CassandraSessionStore.builder().session(faulty.session()).keyspace(keyspace)
        .namespace("old").build();
    stores.add(store);

    assertThat(session.execute("SELECT version FROM " + keyspace + ".schema_version").one().getInt(0))
        .isEqualTo(7);
    assertThat(store.capabilities()).as("the upgrade added the search index").contains(Capability.SEARCH);
    assertThat(store.events().find("s", "e1")).map(Event::seq).contains(1L);
    assertThat(store.sessions().find("s").orElseThrow().expiry()).as("expiry of a session stored before it").isEmpty();
    java.time.Instant expiry = java.time.Instant.now().minusSeconds(1)
        .truncatedTo(java.time.temporal.ChronoUnit.MICROS);
    store.sessions().save(dev.sessionstore.SessionWrite.of("s").withExpiresAt(expiry));
    assertThat(store.sessions().list(dev.sessionstore.SessionQuery.all().expiresBefore(expiry.plusSeconds(1)))
        .items()).as("the migrated session by its expiry, through the index the upgrade added")
        .extracting(dev.sessionstore.Session::id).containsExactly("s");
    store.events().append("s", NewEvent.of("t").withId("e2"));
    store.checkpoints().put(dev.sessionstore.CheckpointKey.of("s", "turn"), new byte[] {7});
    store.summaries().put("s", new dev.sessionstore.NewSummary(1, 2, Json.of("{}"), 1));
    assertThat(store.summaries().revive("s").lastSeq()).isEqualTo(2);
    store.toolCalls().save(dev.sessionstore.ToolCallWrite.of("c1", "s", "ask").withRequestEventId("e1")
        .withDeadline(java.time.Instant.now().plusSeconds(60)));
    assertThat(store.sessions().claim("s", "worker").token()).isEqualTo(1);
    assertThat(store.toolCalls().pending("s")).hasSize(1);
    assertThat(store.retention().apply(dev.sessionstore.RetentionPolicy.builder().keepEventsPerSession(1).build())
        .events()).as("events cut from the migrated session's log").isEqualTo(2);
    assertThat(store.events().read("s", dev.sessionstore.EventQuery.all()).items()).isEmpty();
    assertThat(store.events().lastSeq("s")).isEqualTo(2);
    assertThat(store.toolCalls().find("s", "c1").orElseThrow().requestEventId()).isNull();
    store.events().append("s", NewEvent.of("t", Json.of("{\"text\":\"upgraded\"}")));
    assertThat(store.search().find(dev.sessionstore.SearchQuery.of("upgraded")).hits()).hasSize(1);
  }

  @Test
  void aSchemaNewerThanTheCodeIsRefused() {
    String keyspace = "session_store_newer";
    SharedCluster.session().execute("CREATE KEYSPACE IF NOT EXISTS " + keyspace
        + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    SharedCluster.session().execute("CREATE TABLE IF NOT EXISTS " + keyspace
        + ".schema_version (component text PRIMARY KEY, version int)");
    SharedCluster.session().execute("INSERT INTO " + keyspace
        + ".schema_version (component, version) VALUES ('session-store', 99)");

    assertThatThrownBy(() -> CassandraSessionStore.builder().session(faulty.session()).keyspace(keyspace)
        .replicationFactor(1).createSchema(false).build())
        .isInstanceOf(StoreFailureException.class)
        .hasMessageContaining("version 99, newer than this store's 7");
  }
}
