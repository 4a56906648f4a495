package dev.sessionstore;

import dev.sessionstore.spi.EventFilter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.HashSet;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class EventQueryTest {

  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  private static Event event(long seq, String type, String runId, String agentId, Instant timestamp) {
    return new Event("s", seq, "e" + seq, type, runId, agentId, null, Json.emptyObject(), timestamp);
  }

  private static Event event(long seq) {
    return event(seq, "message", null, null, T0);
  }

  private static void assertField(ThrowingCallable call, String field) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo(field));
  }

  @Test
  void allIsTheWholeLogOldestFirst() {
    EventQuery all = EventQuery.all();

    assertThat(all.after()).isZero();
    assertThat(all.before()).isEmpty();
    assertThat(all.limit()).isEmpty();
    assertThat(all.direction()).isEqualTo(ReadDirection.OLDEST_FIRST);
    assertThat(all.types()).isEmpty();
    assertThat(EventFilter.matches(all, event(1))).isTrue();
    assertThat(EventFilter.matches(all, event(Long.MAX_VALUE))).isTrue();
  }

  @Test
  void buildersSetDirectionAndLimit() {
    assertThat(EventQuery.all().first(5).limit()).isEqualTo(OptionalInt.of(5));
    assertThat(EventQuery.all().first(5).direction()).isEqualTo(ReadDirection.OLDEST_FIRST);
    assertThat(EventQuery.all().last(5).direction()).isEqualTo(ReadDirection.TAIL);
    assertThat(EventQuery.all().newestFirst().limit(3).direction()).isEqualTo(ReadDirection.NEWEST_FIRST);
    assertThat(EventQuery.all().newestFirst().limit(3).limit()).isEqualTo(OptionalInt.of(3));
    assertThat(EventQuery.all().before(10).before()).isEqualTo(OptionalLong.of(10));
    assertThat(EventQuery.all().after(7).after()).isEqualTo(7);
  }

  @Test
  void buildersReturnCopies() {
    EventQuery base = EventQuery.all();
    EventQuery narrowed = base.after(3).types("a").runId("r");

    assertThat(base).isEqualTo(EventQuery.all());
    assertThat(narrowed.after()).isEqualTo(3);
    assertThat(narrowed.types()).containsExactly("a");
    assertThat(narrowed.runId()).isEqualTo("r");
  }

  @Test
  void typesAreCopiedAndUnmodifiable() {
    Set<String> types = new HashSet<>(Set.of("a"));
    EventQuery query = new EventQuery(0, OptionalLong.empty(), OptionalInt.empty(), ReadDirection.OLDEST_FIRST, null,
        types, null, null);
    types.add("b");

    assertThat(query.types()).containsExactly("a");
    assertThatThrownBy(() -> query.types().add("c")).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void rejectsBadLimits() {
    assertField(() -> EventQuery.all().limit(0), "limit");
    assertField(() -> EventQuery.all().limit(-1), "limit");
    assertField(() -> EventQuery.all().first(0), "limit");
    assertField(() -> EventQuery.all().last(-1), "limit");
    assertField(() -> new EventQuery(0, OptionalLong.empty(), OptionalInt.of(0), ReadDirection.TAIL, null, Set.of(),
        null, null), "limit");
  }

  @Test
  void rejectsBadSeqBounds() {
    assertField(() -> EventQuery.all().before(0), "before");
    assertField(() -> EventQuery.all().before(-5), "before");
    assertField(() -> EventQuery.all().after(-1), "after");
    assertField(() -> new EventQuery(0, OptionalLong.of(0), OptionalInt.empty(), ReadDirection.TAIL, null, Set.of(),
        null, null), "before");
    assertThat(EventQuery.all().after(0).after()).isZero();
    assertThat(EventFilter.matches(EventQuery.all().before(1), event(1))).isFalse();
  }

  @Test
  void rejectsBadFilters() {
    assertField(() -> EventQuery.all().runId(null), "runId");
    assertField(() -> EventQuery.all().runId(" "), "runId");
    assertField(() -> EventQuery.all().agentId(""), "agentId");
    assertField(() -> EventQuery.all().types(" "), "types");
    assertField(() -> EventQuery.all().types((String[]) null), "types");
    assertField(() -> EventQuery.all().types("a", null), "types");
    assertField(() -> EventQuery.all().since(null), "since");
    assertField(() -> EventQuery.all().direction(null), "direction");
  }

  @Test
  void matchesWithinExclusiveSeqBounds() {
    EventQuery query = EventQuery.all().after(2).before(5);

    assertThat(EventFilter.matches(query, event(2))).isFalse();
    assertThat(EventFilter.matches(query, event(3))).isTrue();
    assertThat(EventFilter.matches(query, event(4))).isTrue();
    assertThat(EventFilter.matches(query, event(5))).isFalse();
  }

  @Test
  void limitAndDirectionDoNotAffectMatching() {
    assertThat(EventFilter.matches(EventQuery.all().last(1), event(1))).isTrue();
    assertThat(EventFilter.matches(EventQuery.all().newestFirst().limit(1), event(100))).isTrue();
  }

  @Test
  void matchesEveryFilterThatIsSet() {
    EventQuery query = EventQuery.all().runId("r").agentId("a").types("user", "assistant").since(T0);

    assertThat(EventFilter.matches(query, event(1, "user", "r", "a", T0))).isTrue();
    assertThat(EventFilter.matches(query, event(1, "assistant", "r", "a", T0.plusSeconds(1)))).isTrue();
    assertThat(EventFilter.matches(query, event(1, "tool", "r", "a", T0))).isFalse();
    assertThat(EventFilter.matches(query, event(1, "user", "other", "a", T0))).isFalse();
    assertThat(EventFilter.matches(query, event(1, "user", null, "a", T0))).isFalse();
    assertThat(EventFilter.matches(query, event(1, "user", "r", "b", T0))).isFalse();
    assertThat(EventFilter.matches(query, event(1, "user", "r", null, T0))).isFalse();
    assertThat(EventFilter.matches(query, event(1, "user", "r", "a", T0.minusNanos(1000)))).isFalse();
  }

  @Test
  void sinceIsInclusiveToTheMicrosecond() {
    EventQuery query = EventQuery.all().since(T0.plusNanos(1_500));

    assertThat(query.since()).isEqualTo(T0.plusNanos(1_000));
    assertThat(EventFilter.matches(query, event(1, "m", null, null, T0.plusNanos(1_000)))).isTrue();
    assertThat(EventFilter.matches(query, event(1, "m", null, null, T0))).isFalse();
  }

  @Test
  void filtersCompareExactly() {
    assertThat(EventFilter.matches(EventQuery.all().types("Message"), event(1))).isFalse();
    assertThat(EventFilter.matches(EventQuery.all().runId("r"), event(1, "message", "r ", null, T0))).isFalse();
    assertThat(EventFilter.matches(EventQuery.all().agentId("A"), event(1, "message", null, "a", T0))).isFalse();
  }
}
