package dev.sessionstore.memory.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Event;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SessionLogTest {

  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

  private final SessionLog log = new SessionLog("s");

  /** Ten events; even seqs have type "even", odd seqs "odd". */
  @BeforeEach
  void fill() {
    List<NewEvent> events = new ArrayList<>();
    for (int seq = 1; seq <= 10; seq++) {
      events.add(NewEvent.of(seq % 2 == 0 ? "even" : "odd").withId("e" + seq));
    }
    log.append(events, NOW);
  }

  private static List<Long> seqs(EventPage page) {
    return page.items().stream().map(Event::seq).toList();
  }

  @Test
  void assignsConsecutiveSeqsFromOne() {
    assertThat(log.lastSeq()).isEqualTo(10);
    assertThat(log.find("e4").seq()).isEqualTo(4);
    assertThat(log.append(List.of(NewEvent.of("x").withId("e11")), NOW)).extracting(Event::seq)
        .containsExactly(11L);
  }

  @Test
  void readsForwardAfterACursorWithANextCursorOnlyWhileMoreRemain() {
    EventPage first = log.read(EventQuery.all().after(2).first(4));
    EventPage last = log.read(EventQuery.all().after(6).first(4));

    assertThat(seqs(first)).containsExactly(3L, 4L, 5L, 6L);
    assertThat(first.nextCursor()).isEqualTo(OptionalLong.of(6));
    assertThat(seqs(last)).containsExactly(7L, 8L, 9L, 10L);
    assertThat(last.nextCursor()).isEmpty();
  }

  @Test
  void readsTheTailOldestFirstAndPagesBackwards() {
    EventPage tail = log.read(EventQuery.all().last(3));
    EventPage older = log.read(EventQuery.all().before(tail.nextCursor().getAsLong()).last(3));
    EventPage oldest = log.read(EventQuery.all().before(2).last(3));

    assertThat(seqs(tail)).containsExactly(8L, 9L, 10L);
    assertThat(tail.nextCursor()).isEqualTo(OptionalLong.of(8));
    assertThat(seqs(older)).containsExactly(5L, 6L, 7L);
    assertThat(seqs(oldest)).containsExactly(1L);
    assertThat(oldest.nextCursor()).isEmpty();
  }

  @Test
  void readsNewestFirstWithTheOldestItemAsCursor() {
    EventPage page = log.read(EventQuery.all().newestFirst().limit(4).before(10));

    assertThat(seqs(page)).containsExactly(9L, 8L, 7L, 6L);
    assertThat(page.nextCursor()).isEqualTo(OptionalLong.of(6));
  }

  @Test
  void cursorsAccountForFilters() {
    EventPage evens = log.read(EventQuery.all().types("even").first(5));
    EventPage lastOdds = log.read(EventQuery.all().types("odd").after(4).first(3));
    EventPage firstOdd = log.read(EventQuery.all().types("odd").before(3).last(1));

    assertThat(seqs(evens)).containsExactly(2L, 4L, 6L, 8L, 10L);
    assertThat(evens.nextCursor()).isEmpty();
    assertThat(seqs(lastOdds)).containsExactly(5L, 7L, 9L);
    assertThat(lastOdds.nextCursor()).isEmpty();
    assertThat(seqs(firstOdd)).containsExactly(1L);
    assertThat(firstOdd.nextCursor()).isEmpty();
  }

  @Test
  void boundsPastTheEndAreEmpty() {
    assertThat(log.read(EventQuery.all().after(10)).isEmpty()).isTrue();
    assertThat(log.read(EventQuery.all().after(Long.MAX_VALUE)).isEmpty()).isTrue();
    assertThat(log.read(EventQuery.all().before(1)).isEmpty()).isTrue();
    assertThat(log.read(EventQuery.all().after(5).before(6)).isEmpty()).isTrue();
    assertThat(seqs(log.read(EventQuery.all().before(Long.MAX_VALUE).last(1)))).containsExactly(10L);
  }

  @Test
  void truncationRemovesTheTailAndItsIds() {
    assertThat(log.truncateFrom(8)).isEqualTo(3);
    assertThat(log.truncateFrom(11)).isZero();

    assertThat(log.lastSeq()).isEqualTo(7);
    assertThat(log.find("e8")).isNull();
    assertThat(log.findAll(List.of("e7", "e8")).keySet()).containsExactly("e7");
    assertThat(log.append(List.of(NewEvent.of("x").withId("e8")), NOW)).extracting(Event::seq)
        .containsExactly(8L);
  }

  @Test
  void rangesAreSeqSlices() {
    assertThat(log.range(3, 5)).extracting(Event::seq).containsExactly(4L, 5L);
    assertThat(log.range(0, 100)).hasSize(10);
    assertThat(log.range(5, 5)).isEmpty();
  }

  @Test
  void aForkSharesThePrefixAndReadsItAsItsOwn() {
    SessionLog fork = log.forkAt("f", 6);
    fork.append(List.of(NewEvent.of("x").withId("f7"), NewEvent.of("x").withId("f8")), NOW);

    assertThat(fork.lastSeq()).isEqualTo(8);
    assertThat(fork.range(0, 100)).extracting(Event::id).containsExactly("e1", "e2", "e3", "e4", "e5", "e6", "f7",
        "f8");
    assertThat(fork.range(0, 100)).extracting(Event::sessionId).containsOnly("f");
    assertThat(fork.find("e7")).as("an event of the parent after the fork point").isNull();
    assertThat(fork.find("e6").sessionId()).isEqualTo("f");
    assertThat(seqs(fork.read(EventQuery.all().last(3)))).containsExactly(6L, 7L, 8L);
    assertThat(seqs(fork.read(EventQuery.all().newestFirst().before(8).limit(3)))).containsExactly(7L, 6L, 5L);
    assertThat(seqs(fork.read(EventQuery.all().types("even").after(3).first(3)))).containsExactly(4L, 6L);
  }

  @Test
  void truncatingTheParentLeavesItsForksWhole() {
    SessionLog fork = log.forkAt("f", 6);
    SessionLog grandchild = fork.forkAt("g", 6);

    log.truncateFrom(3);
    log.append(List.of(NewEvent.of("y").withId("p3")), NOW);
    fork.truncateFrom(5);

    assertThat(log.range(0, 100)).extracting(Event::id).containsExactly("e1", "e2", "p3");
    assertThat(fork.range(0, 100)).extracting(Event::id).containsExactly("e1", "e2", "e3", "e4");
    assertThat(grandchild.range(0, 100)).extracting(Event::id)
        .containsExactly("e1", "e2", "e3", "e4", "e5", "e6");
    assertThat(grandchild.find("p3")).isNull();
    assertThat(grandchild.find("e5").seq()).isEqualTo(5);
  }

  @Test
  void truncatingASharedTailMovesTheParentToACopy() {
    SessionLog fork = log.forkAt("f", 10);

    log.truncateFrom(9);
    log.append(List.of(NewEvent.of("y").withId("p9")), NOW);

    assertThat(log.range(0, 100)).extracting(Event::id).endsWith("e8", "p9");
    assertThat(fork.range(0, 100)).extracting(Event::id).endsWith("e8", "e9", "e10");
    assertThat(fork.find("p9")).isNull();
  }

  @Test
  void aForkKnowsTheFirstSeqNamingEachRunOfItsPrefix() {
    log.append(List.of(NewEvent.of("x").withId("r1").withRunId("run-a"), NewEvent.of("x").withId("r2")
        .withRunId("run-b")), NOW);

    SessionLog fork = log.forkAt("f", 11);

    assertThat(log.firstSeqNaming("run-b")).isEqualTo(12);
    assertThat(fork.firstSeqNaming("run-a")).isEqualTo(11);
    assertThat(fork.firstSeqNaming("run-b")).isZero();
    log.truncateFrom(11);
    assertThat(log.firstSeqNaming("run-a")).isZero();
    assertThat(fork.firstSeqNaming("run-a")).isEqualTo(11);
  }
}
