package dev.sessionstore.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.DuplicateEventException;
import dev.sessionstore.Event;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.Limits;
import dev.sessionstore.NewEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class EventBatchTest {

  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

  private static NewEvent event(String id) {
    return new NewEvent(id, "message", null, null, null, Json.of("{\"n\":\"" + id + "\"}"), null);
  }

  private static Map<String, Event> byId(List<Event> events) {
    return events.stream().collect(Collectors.toMap(Event::id, Function.identity()));
  }

  /** Stores {@code fresh} after {@code lastSeq}, as an adapter would. */
  private static List<Event> store(List<NewEvent> fresh, long lastSeq) {
    List<Event> stored = new ArrayList<>();
    for (NewEvent event : fresh) {
      stored.add(EventBatch.toStored("s", event, lastSeq + stored.size() + 1, NOW));
    }
    return stored;
  }

  @Test
  void identicalDuplicatesInOneBatchCollapse() {
    NewEvent a = event("a");
    EventBatch batch = EventBatch.of("s", List.of(a, event("b"), event("a")));

    assertThat(batch.ids()).containsExactly("a", "b");
    assertThat(batch.distinctEvents()).containsExactly(a, event("b"));
    assertThat(batch.fresh(Map.of())).containsExactly(a, event("b"));
  }

  @Test
  void differentEventsUnderOneIdInOneBatchAreRejected() {
    NewEvent other = event("a").withPayload(Json.of("{\"n\":\"changed\"}"));

    assertThatThrownBy(() -> EventBatch.of("s", List.of(event("a"), event("b"), other)))
        .isInstanceOfSatisfying(DuplicateEventException.class, e -> {
          assertThat(e.sessionId()).isEqualTo("s");
          assertThat(e.eventId()).isEqualTo("a");
        });
  }

  @Test
  void duplicatesDifferingOnlyInJsonNotationCollapse() {
    NewEvent spaced = event("a").withPayload(Json.of("{ \"n\" : 1e2 }"));
    NewEvent compact = event("a").withPayload(Json.of("{\"n\":100}"));

    assertThat(EventBatch.of("s", List.of(spaced, compact)).distinctEvents()).containsExactly(spaced);
  }

  @Test
  void freshSkipsStoredEventsWithEqualContent() {
    List<Event> stored = store(List.of(event("a")), 0);
    EventBatch batch = EventBatch.of("s", List.of(event("a"), event("b")));

    assertThat(batch.fresh(byId(stored))).containsExactly(event("b"));
  }

  @Test
  void freshRejectsAStoredIdWithDifferentContent() {
    List<Event> stored = store(List.of(event("a")), 0);
    EventBatch batch = EventBatch.of("s", List.of(event("b"), event("a").withAgentId("other")));

    assertThatThrownBy(() -> batch.fresh(byId(stored)))
        .isInstanceOfSatisfying(DuplicateEventException.class, e -> assertThat(e.eventId()).isEqualTo("a"));
  }

  @Test
  void freshAcceptsAStoreStampedEventReplayedWithoutTimestamp() {
    List<Event> stored = store(List.of(event("a")), 0);

    assertThat(EventBatch.of("s", List.of(event("a"))).fresh(byId(stored))).isEmpty();
    assertThatThrownBy(() -> EventBatch.of("s", List.of(event("a").withTimestamp(NOW.plusSeconds(1))))
        .fresh(byId(stored)))
        .isInstanceOf(DuplicateEventException.class);
  }

  @Test
  void resultsFollowTheInputOrderWithReplaysAndDuplicates() {
    List<Event> before = store(List.of(event("old")), 0);
    EventBatch batch = EventBatch.of("s", List.of(event("new1"), event("old"), event("new2"), event("new1")));
    List<Event> appended = store(batch.fresh(byId(before)), 1);
    Map<String, Event> all = new HashMap<>(byId(before));
    all.putAll(byId(appended));

    List<Event> results = batch.results(all);

    assertThat(results).extracting(Event::id).containsExactly("new1", "old", "new2", "new1");
    assertThat(results).extracting(Event::seq).containsExactly(2L, 1L, 3L, 2L);
  }

  @Test
  void resultsRequireEveryEventToBeStored() {
    EventBatch batch = EventBatch.of("s", List.of(event("a")));

    assertThatThrownBy(() -> batch.results(Map.of())).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void emptyBatchIsEmpty() {
    EventBatch batch = EventBatch.of("s", List.of());

    assertThat(batch.isEmpty()).isTrue();
    assertThat(batch.ids()).isEmpty();
    assertThat(batch.results(Map.of())).isEmpty();
    assertThat(EventBatch.of("s", List.of(event("a"))).isEmpty()).isFalse();
  }

  @Test
  void rejectsNullListNullElementAndBadSessionId() {
    assertThatThrownBy(() -> EventBatch.of("s", null))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("events"));
    assertThatThrownBy(() -> EventBatch.of("s", Arrays.asList(event("a"), null)))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("events[1]"));
    assertThatThrownBy(() -> EventBatch.of(" ", List.of(event("a"))))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("sessionId"));
  }

  @Test
  void boundsTheBatchSize() {
    NewEvent same = event("a");

    assertThat(EventBatch.of("s", Collections.nCopies(Limits.MAX_BATCH_SIZE, same)).ids()).containsExactly("a");
    assertThatThrownBy(() -> EventBatch.of("s", Collections.nCopies(Limits.MAX_BATCH_SIZE + 1, same)))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("events"));
  }

  @Test
  void copiesTheInput() {
    List<NewEvent> input = new ArrayList<>(List.of(event("a")));
    EventBatch batch = EventBatch.of("s", input);
    input.add(event("b"));

    assertThat(batch.ids()).containsExactly("a");
    assertThat(batch.results(byId(store(List.of(event("a")), 0)))).hasSize(1);
  }
}
