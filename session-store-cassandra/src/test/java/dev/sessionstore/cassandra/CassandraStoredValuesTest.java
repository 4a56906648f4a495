package dev.sessionstore.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.NewSummary;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.cassandra.FaultySession.Fault;
import dev.sessionstore.cassandra.cluster.SharedCluster;
import dev.sessionstore.conformance.TestClock;
import dev.sessionstore.spi.SettledOutcome;
import dev.sessionstore.spi.StoreEventSource;
import dev.sessionstore.spi.StoreEvents;
import dev.sessionstore.spi.StoredValue;
import dev.sessionstore.spi.StoredValueKind;
import dev.sessionstore.spi.StoredValuePage;
import dev.sessionstore.spi.StoredValues;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What the kit cannot see of the Cassandra stored-value rewrite, on the shared single node: a step that read the
 * partition before a rewrite does not write the old value back, unknown outcomes of a rewrite are settled, a
 * rewritten audit row is removed whole, and what a pass costs in requests.
 */
class CassandraStoredValuesTest {

  private static final String KEYSPACE = "session_store_tests";

  private final FaultySession faulty = new FaultySession(SharedCluster.session());
  private final String namespace = UUID.randomUUID().toString();
  private final TestClock clock = new TestClock();
  private final List<SessionStore> stores = new ArrayList<>();

  /** A store on the faulty driver session. */
  private SessionStore store() {
    return open(CassandraSessionStore.builder().session(faulty.session()));
  }

  /** Another instance on the same namespace with a driver session of its own, as another process would have. */
  private SessionStore otherProcess() {
    return open(CassandraSessionStore.builder().session(SharedCluster.peerSession()));
  }

  private SessionStore open(CassandraSessionStore.Builder builder) {
    SessionStore store = builder.keyspace(KEYSPACE).namespace(namespace).clock(clock).modelCallAudit(true)
        .replicationFactor(SharedCluster.replicationFactor()).build();
    stores.add(store);
    return store;
  }

  @AfterEach
  void close() {
    stores.forEach(SessionStore::close);
  }

  private static StoredValues values(SessionStore store) {
    return store.unwrap(StoredValues.class).orElseThrow();
  }

  private static StoredValue scanned(SessionStore store, StoredValueKind kind) {
    return values(store).scan(Optional.empty(), 100).values().stream().filter(value -> value.ref().kind() == kind)
        .findFirst().orElseThrow();
  }

  @Test
  @DisplayName("A resolution that read its tool call before another process rewrote the call's arguments re-reads "
      + "and stores the rewritten arguments, not the ones it read")
  void aStepThatReadTheRowBeforeARewriteKeepsTheRewrittenValue() {
    SessionStore store = store();
    store.toolCalls().save(ToolCallWrite.of("c1", "s", "search").withArguments(Json.of("{\"q\":1}")));
    SessionStore other = otherProcess();
    StoredValue arguments = scanned(other, StoredValueKind.TOOL_CALL_ARGUMENTS);
    Json rewritten = Json.of("{\"q\":\"rewritten\"}");
    List<Boolean> applied = new CopyOnWriteArrayList<>();
    faulty.beforeNextBatch(() -> applied.add(values(other).rewrite(arguments,
        StoredValue.of(arguments.ref(), rewritten))));

    store.toolCalls().resolve("s", "c1", ToolCallStatus.COMPLETED, Json.of("{\"hits\":3}"));

    assertThat(applied).as("the rewrite run between the resolution's read and its batch").containsExactly(true);
    ToolCall call = store.toolCalls().find("s", "c1").orElseThrow();
    assertThat(call.arguments()).as("arguments after the resolution").isEqualTo(rewritten);
    assertThat(call.status()).isEqualTo(ToolCallStatus.COMPLETED);
    assertThat(call.result()).isEqualTo(Json.of("{\"hits\":3}"));
  }

  @Test
  @DisplayName("A rewrite whose answer was lost is settled by a serial read as applied")
  void aRewriteWhoseAnswerWasLostIsSettledAsApplied() {
    SessionStore store = store();
    store.events().append("s", NewEvent.of("message", Json.of("{\"n\":1}")).withId("e1"));
    List<SettledOutcome> settled = settledOutcomes(store);
    StoredValue payload = scanned(store, StoredValueKind.EVENT_PAYLOAD);
    Json rewritten = Json.of("{\"n\":\"rewritten\"}");
    faulty.failNextConditionalWrite(Fault.APPLIED_ANSWER_LOST);

    assertThat(values(store).rewrite(payload, StoredValue.of(payload.ref(), rewritten))).isTrue();

    assertThat(store.events().find("s", "e1").orElseThrow().payload()).isEqualTo(rewritten);
    assertThat(settled).containsExactly(SettledOutcome.APPLIED);
  }

  @Test
  @DisplayName("A rewrite that was never sent is settled by a serial read as not applied, and written then")
  void aRewriteThatWasNeverSentIsSettledAndWritten() {
    SessionStore store = store();
    store.events().append("s", NewEvent.of("message", Json.of("{\"n\":1}")).withId("e1"));
    List<SettledOutcome> settled = settledOutcomes(store);
    StoredValue payload = scanned(store, StoredValueKind.EVENT_PAYLOAD);
    Json rewritten = Json.of("{\"n\":\"rewritten\"}");
    faulty.failNextConditionalWrite(Fault.NOT_SENT);

    assertThat(values(store).rewrite(payload, StoredValue.of(payload.ref(), rewritten))).isTrue();

    assertThat(store.events().find("s", "e1").orElseThrow().payload()).isEqualTo(rewritten);
    assertThat(settled).containsExactly(SettledOutcome.NOT_APPLIED);
  }

  @Test
  @DisplayName("An audit row whose context and usage were rewritten after it was recorded is removed whole by "
      + "deleteOlderThan")
  void aRewrittenAuditRowIsRemovedWhole() {
    SessionStore store = store();
    store.modelCalls().record("s", new NewModelCall(1, "m", Json.of("{\"messages\":[]}"), Json.of("{\"tokens\":9}")));
    for (StoredValueKind kind : List.of(StoredValueKind.MODEL_CALL_CONTEXT, StoredValueKind.MODEL_CALL_USAGE)) {
      StoredValue value = scanned(store, kind);
      assertThat(values(store).rewrite(value, StoredValue.of(value.ref(), Json.of("{\"rewritten\":true}"))))
          .as("rewrite of %s", kind).isTrue();
    }
    clock.advance(Duration.ofHours(1));

    assertThat(store.modelCalls().deleteOlderThan("s", Duration.ofMinutes(1))).as("rows removed").isEqualTo(1);

    assertThat(store.modelCalls().list("s")).as("audit rows after the removal").isEmpty();
    assertThat(SharedCluster.session().execute("SELECT * FROM " + KEYSPACE + ".session_data WHERE ns = ? "
        + "AND session_id = 's' AND kind = 'm'", namespace).all()).as("audit rows in the table").isEmpty();
  }

  @Test
  @DisplayName("A scan page costs at most three reads per kind it resumes in and one per kind it enters (checkpoints "
      + "one per value); a rewrite costs one conditional update and no read")
  void aPassCostsWhatTheDesignNoteSays() {
    List<ResultSet> results = new CopyOnWriteArrayList<>();
    CqlSession counting = (CqlSession) Proxy.newProxyInstance(CqlSession.class.getClassLoader(),
        new Class<?>[] {CqlSession.class}, (proxy, method, args) -> {
          Object result;
          try {
            result = method.invoke(SharedCluster.session(), args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          if (result instanceof ResultSet rows) {
            results.add(rows);
          }
          return result;
        });
    SessionStore store = open(CassandraSessionStore.builder().session(counting).sweepInterval(Duration.ofDays(1)));
    for (String session : List.of("a", "b", "c")) {
      store.events().appendAll(session, List.of(NewEvent.of("message", Json.of("{\"n\":1}")),
          NewEvent.of("message", Json.of("{\"n\":2}")), NewEvent.of("message", Json.of("{\"n\":3}"))));
      store.summaries().put(session, new NewSummary(1, 3, Json.of("{\"gist\":1}"), 1));
      store.checkpoints().put(CheckpointKey.of(session, "turn"), new byte[] {1, 2});
    }
    results.clear();
    int pages = 0;
    int values = 0;
    Optional<String> cursor = Optional.empty();
    List<StoredValue> scanned = new ArrayList<>();
    do {
      StoredValuePage page = values(store).scan(cursor, 4);
      pages++;
      values += page.values().size();
      scanned.addAll(page.values());
      cursor = page.nextCursor();
    } while (cursor.isPresent());
    int scanRequests = requests(results);
    results.clear();
    for (StoredValue value : scanned) {
      assertThat(values(store).rewrite(value, value.ref().kind().blob() ? StoredValue.of(value.ref(), new byte[] {9})
          : StoredValue.of(value.ref(), Json.of("{\"rewritten\":true}")))).as("rewrite of %s", value.ref()).isTrue();
    }
    int rewriteRequests = requests(results);

    System.out.println("stored values on Cassandra: " + values + " values scanned in " + pages + " pages of 4 with "
        + scanRequests + " requests; " + scanned.size() + " rewrites with " + rewriteRequests + " requests");
    assertThat(values).as("values: 9 events, 3 summaries, 3 checkpoints").isEqualTo(15);
    // each page resumes in one kind (3 reads at most) and may enter the next kinds (one read each, 8 kinds in all);
    // each checkpoint is a request of its own
    assertThat(scanRequests).as("requests of the scan").isLessThanOrEqualTo(3 * pages + 8 + 3);
    assertThat(rewriteRequests).as("requests of the rewrites").isEqualTo(scanned.size());
  }

  /** The requests behind {@code results}: every page the driver fetched for each. */
  private static int requests(List<ResultSet> results) {
    return results.stream().mapToInt(rows -> rows.getExecutionInfos().size()).sum();
  }

  private static List<SettledOutcome> settledOutcomes(SessionStore store) {
    List<SettledOutcome> settled = new CopyOnWriteArrayList<>();
    StoreEventSource.of(store).subscribe(new StoreEvents() {
      @Override
      public void outcomeSettled(SettledOutcome outcome) {
        settled.add(outcome);
      }
    });
    return settled;
  }
}
