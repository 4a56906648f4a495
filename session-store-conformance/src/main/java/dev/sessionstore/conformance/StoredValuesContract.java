package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.sessionstore.Capability;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.ModelCall;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.NewSummary;
import dev.sessionstore.Summary;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.spi.StoredValue;
import dev.sessionstore.spi.StoredValueKind;
import dev.sessionstore.spi.StoredValuePage;
import dev.sessionstore.spi.StoredValueRef;
import dev.sessionstore.spi.StoredValues;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Stored values ({@link Capability#STORED_VALUE_REWRITE}, {@link StoredValues} through
 * {@link dev.sessionstore.SessionStore#unwrap}): a scan returns every payload-bearing value once, in pages that
 * together hold each exactly once, and a rewrite is a compare-and-set that a stale expected value does not pass; a
 * rewritten value reads back through the normal API with nothing else changed. What an encrypting store's
 * re-encryption pass stands on.
 *
 * <p>If this fails, check that the store's {@code unwrap(StoredValues.class)} answers (and that decorators in front of
 * it pass it on); that a scan keysets on a total order (kind, session, key) and its cursor names the last value
 * returned, not the next; that an event a fork shares is scanned once, under the session holding its row (a store
 * whose forks hold copies of their parent's events scans the copies under the fork, as rows of their own); that the
 * rewrite compares and writes in one atomic step (one {@code UPDATE ... WHERE value = ?}, or under the session's
 * lock); and that it leaves timestamps, seqs and statuses alone.
 */
public abstract class StoredValuesContract extends Contract {

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected StoredValuesContract(SessionStoreConformance kit) {
    super(kit);
  }

  @Override
  protected Set<Capability> requiredCapabilities() {
    return Set.of(Capability.STORED_VALUE_REWRITE);
  }

  private StoredValues values() {
    Optional<StoredValues> values = store.unwrap(StoredValues.class);
    assertThat(values).as("store.unwrap(StoredValues.class) of a store declaring STORED_VALUE_REWRITE").isPresent();
    return values.get();
  }

  /** Every value of the store, page by page with {@code limit}, failing on a page larger than asked. */
  private List<StoredValue> scanAll(int limit) {
    List<StoredValue> all = new ArrayList<>();
    Optional<String> cursor = Optional.empty();
    for (int pages = 0; pages < 10_000; pages++) {
      StoredValuePage page = values().scan(cursor, limit);
      assertThat(page.values().size()).as("size of a page of at most %s", limit).isLessThanOrEqualTo(limit);
      all.addAll(page.values());
      cursor = page.nextCursor();
      if (cursor.isEmpty()) {
        return all;
      }
    }
    throw new AssertionError("the scan did not end within 10000 pages");
  }

  /** The fork {@link #writeEveryKind} made last, if the store has forks. */
  private String fork;

  /**
   * One value of each kind the store supports in session {@code s} (and a global checkpoint): 4 events of which a
   * fork shares 2, the fork's own event, and so on; returns how many values of each kind there are where a fork
   * shares its parent's rows (a store whose forks hold copies of them holds 2 event payloads more).
   */
  private Map<StoredValueKind, Integer> writeEveryKind(String s) {
    Map<StoredValueKind, Integer> expected = new java.util.EnumMap<>(StoredValueKind.class);
    store.events().appendAll(s, List.of(event("e1"), event("e2"), event("e3"), event("e4")));
    expected.put(StoredValueKind.EVENT_PAYLOAD, 4);
    if (store.supports(Capability.FORKS)) {
      fork = store.sessions().fork(s, 2).id();
      store.events().append(fork, event("f3"));
      expected.put(StoredValueKind.EVENT_PAYLOAD, 5);
    }
    if (store.supports(Capability.TOOL_CALLS)) {
      store.toolCalls().save(ToolCallWrite.of("c1", s, "search").withArguments(json("{\"q\": 1}")));
      store.toolCalls().save(ToolCallWrite.of("c2", s, "search").withArguments(json("{\"q\": 2}")));
      store.toolCalls().resolve(s, "c1", ToolCallStatus.COMPLETED, json("{\"hits\": 3}"));
      expected.put(StoredValueKind.TOOL_CALL_ARGUMENTS, 2);
      expected.put(StoredValueKind.TOOL_CALL_RESULT, 1);
    }
    if (store.supports(Capability.SUMMARIES)) {
      store.summaries().put(s, NewSummary.of(1, 2, json("{\"gist\": \"two\"}")));
      expected.put(StoredValueKind.SUMMARY_CONTENT, 1);
    }
    if (store.supports(Capability.CHECKPOINTS)) {
      store.checkpoints().put(CheckpointKey.of(s, "turn"), new byte[] {1, 2, 3});
      store.checkpoints().put(CheckpointKey.global(id("global")), new byte[] {4, 5});
      expected.put(StoredValueKind.CHECKPOINT_DATA, 1);
      expected.put(StoredValueKind.GLOBAL_CHECKPOINT_DATA, 1);
    }
    if (store.supports(Capability.MODEL_CALL_AUDIT) && store.modelCalls().enabled()) {
      store.modelCalls().record(s, new NewModelCall(1, "m", json("{\"messages\": []}"), json("{\"tokens\": 9}")));
      expected.put(StoredValueKind.MODEL_CALL_CONTEXT, 1);
      expected.put(StoredValueKind.MODEL_CALL_USAGE, 1);
    }
    return expected;
  }

  private static Map<StoredValueKind, Integer> countByKind(List<StoredValue> values) {
    return values.stream().collect(Collectors.groupingBy(value -> value.ref().kind(), () ->
        new java.util.EnumMap<>(StoredValueKind.class), Collectors.summingInt(value -> 1)));
  }

  /** The keys of the event payloads of {@code sessionId} among {@code values}, in scan order. */
  private static List<String> eventSeqs(List<StoredValue> values, String sessionId) {
    return values.stream().map(StoredValue::ref).filter(ref -> ref.kind() == StoredValueKind.EVENT_PAYLOAD
        && ref.sessionId().equals(sessionId)).map(StoredValueRef::key).toList();
  }

  private StoredValue only(List<StoredValue> values, StoredValueKind kind, Function<StoredValueRef, Boolean> which) {
    List<StoredValue> found = values.stream().filter(value -> value.ref().kind() == kind && which.apply(value.ref()))
        .toList();
    assertThat(found).as("scanned values of kind %s", kind).hasSize(1);
    return found.get(0);
  }

  @Test
  @DisplayName("A scan returns every stored value of every kind exactly once, an event a fork shares included once, "
      + "each as the normal API reads it")
  void everyValueIsScannedOnce() {
    String s = id("s");
    Map<StoredValueKind, Integer> expected = writeEveryKind(s);

    List<StoredValue> scanned = scanAll(1000);

    assertThat(eventSeqs(scanned, s)).as("seqs of the event payloads scanned under %s", s)
        .containsExactly("1", "2", "3", "4");
    if (fork != null) {
      List<String> forkSeqs = eventSeqs(scanned, fork);
      assertThat(forkSeqs).as("seqs of the event payloads scanned under the fork: its own, and the two it took from "
          + "its parent only where it holds copies of them (its own rows), not the parent's rows")
          .isIn(List.of("3"), List.of("1", "2", "3"));
      expected.put(StoredValueKind.EVENT_PAYLOAD, 4 + forkSeqs.size());
    }
    assertThat(countByKind(scanned)).as("scanned values per kind").isEqualTo(expected);
    assertThat(new HashSet<>(scanned.stream().map(StoredValue::ref).toList())).as("distinct refs")
        .hasSize(scanned.size());
    StoredValue e3 = only(scanned, StoredValueKind.EVENT_PAYLOAD, ref -> ref.sessionId().equals(s)
        && ref.key().equals("3"));
    assertThat(e3.document()).as("scanned payload of event 3")
        .isEqualTo(store.events().find(s, "e3").orElseThrow().payload());
  }

  @Test
  @DisplayName("Pages of 1, 2 and 3 values hold exactly the values of one large page, in the same order, with no "
      + "duplicates across pages")
  void pagingIsCompleteWithoutDuplicates() {
    writeEveryKind(id("a"));
    writeEveryKind(id("b"));
    List<StoredValue> whole = scanAll(10_000);

    for (int limit = 1; limit <= 3; limit++) {
      assertThat(scanAll(limit)).as("values scanned in pages of %s", limit).isEqualTo(whole);
    }
  }

  @Test
  @DisplayName("Event payloads are scanned in seq order, 10 after 9, in one page and across pages")
  void eventsAreScannedInSeqOrder() {
    String s = id("s");
    List<NewEvent> events = new ArrayList<>();
    List<String> seqs = new ArrayList<>();
    for (int seq = 1; seq <= 12; seq++) {
      events.add(event("e" + seq));
      seqs.add(Long.toString(seq));
    }
    store.events().appendAll(s, events);

    assertThat(eventSeqs(scanAll(1000), s)).as("seqs scanned in one page").isEqualTo(seqs);
    assertThat(eventSeqs(scanAll(5), s)).as("seqs scanned in pages of 5").isEqualTo(seqs);
  }

  @Test
  @DisplayName("A page that takes the last values carries no cursor, also when it is exactly full; one that leaves a "
      + "value carries one")
  void aPageReachingTheEndCarriesNoCursor() {
    String s = id("s");
    store.events().appendAll(s, List.of(event("e1"), event("e2"), event("e3")));

    StoredValuePage exact = values().scan(Optional.empty(), 3);
    assertThat(exact.values()).as("a page of 3 over the 3 stored values").hasSize(3);
    assertThat(exact.nextCursor()).as("cursor of a page of 3 over the 3 stored values").isEmpty();
    StoredValuePage partial = values().scan(Optional.empty(), 2);
    assertThat(partial.nextCursor()).as("cursor of a page of 2 over the 3 stored values").isPresent();
    assertThat(values().scan(partial.nextCursor(), 1).nextCursor()).as("cursor of the page taking the third value")
        .isEmpty();
  }

  @Test
  @DisplayName("A rewrite whose expected value is stale does not apply: the newer value stays; a rewrite of a removed "
      + "row applies to nothing")
  void aStaleRewriteDoesNotApply() {
    String s = id("s");
    store.events().append(s, event("e1"));
    StoredValue scanned = only(scanAll(100), StoredValueKind.EVENT_PAYLOAD, ref -> true);
    Json first = json("{\"n\": \"first rewrite\"}");
    Json second = json("{\"n\": \"stale rewrite\"}");

    assertThat(values().rewrite(scanned, StoredValue.of(scanned.ref(), first))).as("first rewrite").isTrue();
    assertThat(values().rewrite(scanned, StoredValue.of(scanned.ref(), second)))
        .as("a rewrite expecting the value the first one replaced").isFalse();
    assertThat(store.events().find(s, "e1").orElseThrow().payload()).as("payload after both").isEqualTo(first);

    StoredValue gone = StoredValue.of(new StoredValueRef(StoredValueKind.EVENT_PAYLOAD, s, "7"), first);
    assertThat(values().rewrite(gone, StoredValue.of(gone.ref(), second))).as("rewrite of an unknown seq").isFalse();
    assertThat(store.events().lastSeq(s)).as("last seq after a rewrite of an unknown seq").isEqualTo(1);
  }

  @Test
  @DisplayName("A rewrite of a value of any kind that expects another value than the stored one does not apply, and "
      + "neither does one in a session that is not stored")
  void aRewriteExpectingAnotherValueDoesNotApplyToAnyKind() {
    String s = id("s");
    writeEveryKind(s);
    List<StoredValue> scanned = scanAll(1000);
    Json other = json("{\"not\": \"stored\"}");
    byte[] otherBytes = "not stored".getBytes(StandardCharsets.UTF_8);
    Json replaced = json("{\"rewritten\": true}");
    byte[] bytes = "rewritten".getBytes(StandardCharsets.UTF_8);

    for (StoredValue value : scanned) {
      boolean blob = value.ref().kind().blob();
      StoredValue expectingOther = blob ? StoredValue.of(value.ref(), otherBytes) : StoredValue.of(value.ref(), other);
      StoredValue replacement = blob ? StoredValue.of(value.ref(), bytes) : StoredValue.of(value.ref(), replaced);
      assertThat(values().rewrite(expectingOther, replacement)).as("rewrite of %s expecting another value",
          value.ref()).isFalse();
    }
    assertThat(scanAll(1000)).as("values after the refused rewrites").isEqualTo(scanned);

    String unknown = id("unknown");
    StoredValue absent = StoredValue.of(new StoredValueRef(StoredValueKind.EVENT_PAYLOAD, unknown, "1"), other);
    assertThat(values().rewrite(absent, StoredValue.of(absent.ref(), replaced)))
        .as("rewrite in a session that is not stored").isFalse();
    assertThat(store.sessions().find(unknown)).as("the session the refused rewrite named").isEmpty();
  }

  @Test
  @DisplayName("A rewritten value of each kind reads back through the normal API; with the clock advanced before the"
      + " rewrites, every other field of every record (timestamps included) is unchanged")
  void aRewrittenValueReadsBack() {
    String s = id("s");
    writeEveryKind(s);
    Json replaced = json("{\"rewritten\": true}");
    byte[] bytes = "rewritten".getBytes(StandardCharsets.UTF_8);
    List<Object> expected = recordsOf(s, replaced, bytes);
    List<StoredValue> scanned = scanAll(1000);
    clock.advance(Duration.ofHours(1));

    for (StoredValue value : scanned) {
      StoredValue replacement = value.ref().kind().blob() ? StoredValue.of(value.ref(), bytes)
          : StoredValue.of(value.ref(), replaced);
      assertThat(values().rewrite(value, replacement)).as("rewrite of %s", value.ref()).isTrue();
    }

    List<Object> after = recordsOf(s, null, null);
    for (int i = 0; i < expected.size(); i++) {
      assertThat(after.get(i)).as("record after the rewrites, which must differ from the one before only in its value")
          .isEqualTo(expected.get(i));
    }
    if (store.supports(Capability.TOOL_CALLS)) {
      assertThat(store.toolCalls().find(s, "c1").orElseThrow().result()).as("result of c1").isEqualTo(replaced);
    }
    assertThat(scanAll(1000).stream().map(StoredValue::ref).toList()).as("refs scanned after the rewrites")
        .isEqualTo(scanned.stream().map(StoredValue::ref).toList());
  }

  /**
   * Every record {@link #writeEveryKind} wrote in {@code s} (its session, the fork's, every event, call, summary,
   * checkpoint and audit row), as read now; with {@code json} and {@code blob} given, each with its payload-bearing
   * values replaced by them: what the records must read as once every value was rewritten to them.
   */
  private List<Object> recordsOf(String s, Json json, byte[] blob) {
    List<Object> records = new ArrayList<>();
    List<String> sessions = fork == null ? List.of(s) : List.of(s, fork);
    for (String session : sessions) {
      records.add(store.sessions().find(session).orElseThrow());
      for (Event e : store.events().read(session, EventQuery.all()).items()) {
        records.add(json == null ? e : new Event(e.sessionId(), e.seq(), e.id(), e.type(), e.runId(), e.agentId(),
            e.parentId(), json, e.timestamp()));
      }
    }
    if (store.supports(Capability.TOOL_CALLS)) {
      for (String id : List.of("c1", "c2")) {
        ToolCall c = store.toolCalls().find(s, id).orElseThrow();
        records.add(json == null ? c : new ToolCall(c.id(), c.sessionId(), c.runId(), c.requestEventId(),
            c.toolName(), json, c.status(), c.result() == null ? null : json, c.deadline(), c.createdAt(),
            c.updatedAt()));
      }
    }
    if (store.supports(Capability.SUMMARIES)) {
      for (Summary m : store.summaries().list(s)) {
        records.add(json == null ? m : new Summary(m.sessionId(), m.fromSeq(), m.toSeq(), json, m.version(),
            m.createdAt()));
      }
    }
    if (store.supports(Capability.CHECKPOINTS)) {
      List<Checkpoint> checkpoints = new ArrayList<>(store.archives().globalCheckpoints());
      checkpoints.add(store.checkpoints().get(CheckpointKey.of(s, "turn")).orElseThrow());
      for (Checkpoint k : checkpoints) {
        records.add(blob == null ? k : new Checkpoint(k.key(), blob, k.updatedAt()));
      }
    }
    if (store.supports(Capability.MODEL_CALL_AUDIT) && store.modelCalls().enabled()) {
      for (ModelCall m : store.modelCalls().list(s)) {
        records.add(json == null ? m : new ModelCall(m.sessionId(), m.turn(), m.model(), json, json,
            m.recordedAt()));
      }
    }
    return records;
  }

  @Test
  @DisplayName("A scan rejects a limit below 1 and a cursor it did not make, naming them")
  void badArgumentsAreRejected() {
    Throwable limit = catchThrowable(() -> values().scan(Optional.empty(), 0));
    assertThat(limit).isInstanceOf(InvalidArgumentException.class);
    assertThat(((InvalidArgumentException) limit).field()).isEqualTo("limit");
    Throwable cursor = catchThrowable(() -> values().scan(Optional.of("%%"), 10));
    assertThat(cursor).isInstanceOf(InvalidArgumentException.class);
    assertThat(((InvalidArgumentException) cursor).field()).isEqualTo("cursor");
  }
}
