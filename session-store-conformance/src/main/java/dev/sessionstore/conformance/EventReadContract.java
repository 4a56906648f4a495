package dev.sessionstore.conformance;

import static dev.sessionstore.conformance.Events.range;
import static dev.sessionstore.conformance.Events.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.ReadDirection;
import dev.sessionstore.SessionWrite;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Event reads (guarantee 7 of docs/guarantees.md): seq bounds ({@code after} and {@code before} exclusive), limits from
 * either end (first N oldest-first, the tail returned oldest-first, newest-first), filters by run, type(s), agent and
 * time ({@code since} inclusive), and the next cursor of {@link EventPage}: the seq to continue from in the page's
 * direction, present only when more matching events remain that way.
 *
 * <p>Most tests read one fixed log of {@value #SIZE} events, one clock second apart:
 * <pre>
 * seq  type       run  agent
 *  1   user       r1   human
 *  2   assistant  r1   planner
 *  3   tool       r1   planner
 *  4   assistant  r1   coder
 *  5   user       r2   human
 *  6   assistant  r2   planner
 *  7   tool       r2   coder
 *  8   assistant  r2   coder
 *  9   user       r3   human
 * 10   assistant  r3   planner
 * 11   note       -    -
 * 12   assistant  r3   planner
 * </pre>
 *
 * <p>If this fails, check: that bounds are strict ({@code seq > after}, {@code seq < before}); that a tail read
 * selects the last N in descending seq order and then reverses them; that filters are applied before the limit, in
 * the database and not after fetching a page; and that the next cursor is computed by asking whether another
 * matching event lies beyond the page (for instance by fetching limit + 1 rows), not from the page being full.
 */
public abstract class EventReadContract extends Contract {

  /** Events in the fixture log. */
  protected static final int SIZE = 12;

  private static final String[][] FIXTURE = {
      {"user", "r1", "human"},
      {"assistant", "r1", "planner"},
      {"tool", "r1", "planner"},
      {"assistant", "r1", "coder"},
      {"user", "r2", "human"},
      {"assistant", "r2", "planner"},
      {"tool", "r2", "coder"},
      {"assistant", "r2", "coder"},
      {"user", "r3", "human"},
      {"assistant", "r3", "planner"},
      {"note", null, null},
      {"assistant", "r3", "planner"},
  };

  /** The fixture session. */
  private String session;
  /** The fixture log as appended. */
  private List<Event> logged;

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected EventReadContract(SessionStoreConformance kit) {
    super(kit);
  }

  @BeforeEach
  final void appendFixtureLog() {
    session = id("log");
    logged = new ArrayList<>();
    for (int i = 0; i < FIXTURE.length; i++) {
      clock.advance(Duration.ofSeconds(1));
      String[] row = FIXTURE[i];
      NewEvent event = NewEvent.of(row[0], Json.of("{\"i\":" + (i + 1) + "}")).withId("e-" + (i + 1));
      if (row[1] != null) {
        event = event.withRunId(row[1]).withAgentId(row[2]);
      }
      logged.add(log().append(session, event));
    }
  }

  private EventLog log() {
    return store.events();
  }

  private EventPage read(EventQuery query) {
    return log().read(session, query);
  }

  private List<Long> seqsOf(EventQuery query) {
    return Events.seqs(read(query).items());
  }

  private static List<Long> seqs(long... values) {
    List<Long> list = new ArrayList<>();
    for (long value : values) {
      list.add(value);
    }
    return list;
  }

  /** The instant at which the fixture stamped event {@code seq}. */
  private static Instant at(long seq) {
    return TestClock.START.plusSeconds(seq);
  }

  private void assertPage(EventQuery query, List<Long> expectedSeqs, OptionalLong expectedCursor) {
    EventPage page = read(query);
    assertThat(Events.seqs(page.items())).as("seqs read by %s", query).containsExactlyElementsOf(expectedSeqs);
    assertThat(page.nextCursor()).as("next cursor of %s", query).isEqualTo(expectedCursor);
  }

  private static OptionalLong cursor(long seq) {
    return OptionalLong.of(seq);
  }

  private static OptionalLong noCursor() {
    return OptionalLong.empty();
  }

  // ---------------------------------------------------------------- whole log, unknown and empty

  @Test
  @Tag("guarantee-2")
  @Tag("guarantee-7")
  @DisplayName("A plain read returns the whole log oldest-first, exactly as appended, without a cursor")
  void readReturnsTheWholeLogOldestFirst() {
    EventPage page = read(EventQuery.all());

    assertThat(page.items()).containsExactlyElementsOf(logged);
    assertThat(page.nextCursor()).isEmpty();
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("Reading an unknown session is empty, without a cursor, with any query, and does not create it")
  void readingAnUnknownSessionIsEmpty() {
    for (EventQuery query : List.of(EventQuery.all(), EventQuery.all().first(3), EventQuery.all().last(3),
        EventQuery.all().newestFirst().limit(3), EventQuery.all().after(2).before(9).types("user"))) {
      EventPage page = log().read("unknown-session", query);
      assertThat(page.items()).as("items of %s on an unknown session", query).isEmpty();
      assertThat(page.nextCursor()).as("cursor of %s on an unknown session", query).isEmpty();
    }
    assertThat(store.sessions().find("unknown-session")).as("session after reading it").isEmpty();
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("Reading a session without events is empty, without a cursor")
  void readingAnEmptyLogIsEmpty() {
    String empty = id("empty");
    store.sessions().save(SessionWrite.of(empty));

    for (EventQuery query : List.of(EventQuery.all(), EventQuery.all().first(1), EventQuery.all().last(1),
        EventQuery.all().newestFirst().limit(1))) {
      EventPage page = log().read(empty, query);
      assertThat(page.items()).as("items of %s on an empty log", query).isEmpty();
      assertThat(page.nextCursor()).as("cursor of %s on an empty log", query).isEmpty();
    }
  }

  // ---------------------------------------------------------------- bounds

  @Test
  @Tag("guarantee-7")
  @DisplayName("after is exclusive")
  void afterIsExclusive() {
    assertPage(EventQuery.all().after(3), range(4, SIZE), noCursor());
    assertPage(EventQuery.all().after(1), range(2, SIZE), noCursor());
    assertPage(EventQuery.all().after(0), range(1, SIZE), noCursor());
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("before is exclusive")
  void beforeIsExclusive() {
    assertPage(EventQuery.all().before(4), range(1, 3), noCursor());
    assertPage(EventQuery.all().before(SIZE), range(1, SIZE - 1), noCursor());
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("after and before together select the open interval between them")
  void afterAndBeforeTogether() {
    assertPage(EventQuery.all().after(2).before(6), seqs(3, 4, 5), noCursor());
    assertPage(EventQuery.all().after(5).before(7), seqs(6), noCursor());
    assertPage(EventQuery.all().after(5).before(6), seqs(), noCursor());
    assertPage(EventQuery.all().after(6).before(6), seqs(), noCursor());
    assertPage(EventQuery.all().after(8).before(3), seqs(), noCursor());
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("after at or beyond the last seq is empty, in every direction")
  void afterAtOrBeyondTheLastSeqIsEmpty() {
    for (long after : new long[] {SIZE, SIZE + 1, 1_000_000}) {
      assertPage(EventQuery.all().after(after), seqs(), noCursor());
      assertPage(EventQuery.all().after(after).first(5), seqs(), noCursor());
      assertPage(EventQuery.all().after(after).last(5), seqs(), noCursor());
      assertPage(EventQuery.all().after(after).newestFirst().limit(5), seqs(), noCursor());
    }
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("before 1 is empty, in every direction")
  void beforeOneIsEmpty() {
    assertPage(EventQuery.all().before(1), seqs(), noCursor());
    assertPage(EventQuery.all().before(1).first(5), seqs(), noCursor());
    assertPage(EventQuery.all().before(1).last(5), seqs(), noCursor());
    assertPage(EventQuery.all().before(1).newestFirst().limit(5), seqs(), noCursor());
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("before the last seq + 1, or far beyond it, is the whole log")
  void beforeLatestPlusOneIsTheWholeLog() {
    assertPage(EventQuery.all().before(SIZE + 1), range(1, SIZE), noCursor());
    assertPage(EventQuery.all().before(1_000_000), range(1, SIZE), noCursor());
    assertPage(EventQuery.all().before(SIZE + 1).last(3), seqs(10, 11, 12), cursor(10));
  }

  // ---------------------------------------------------------------- limits and directions

  @Test
  @Tag("guarantee-7")
  @DisplayName("first(N) returns the oldest N, oldest-first, with the last item's seq as cursor")
  void firstReturnsTheOldest() {
    assertPage(EventQuery.all().first(3), seqs(1, 2, 3), cursor(3));
    assertPage(EventQuery.all().after(4).first(3), seqs(5, 6, 7), cursor(7));
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("last(N) returns the tail, oldest-first, with the first item's seq as cursor")
  void lastReturnsTheTailOldestFirst() {
    assertPage(EventQuery.all().last(3), seqs(10, 11, 12), cursor(10));
    assertPage(EventQuery.all().before(8).last(3), seqs(5, 6, 7), cursor(5));
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("newest-first with a limit returns the newest N, newest-first, with the oldest item's seq as cursor")
  void newestFirstWithALimit() {
    assertPage(EventQuery.all().newestFirst().limit(3), seqs(12, 11, 10), cursor(10));
    assertPage(EventQuery.all().newestFirst().before(8).limit(3), seqs(7, 6, 5), cursor(5));
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("newest-first without a limit returns the whole log reversed, without a cursor")
  void newestFirstWithoutALimit() {
    List<Long> reversed = range(1, SIZE);
    Collections.reverse(reversed);

    assertPage(EventQuery.all().newestFirst(), reversed, noCursor());
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("A tail read without a limit returns the whole log oldest-first, without a cursor")
  void tailWithoutALimit() {
    assertPage(EventQuery.all().direction(ReadDirection.TAIL), range(1, SIZE), noCursor());
    assertPage(EventQuery.all().direction(ReadDirection.TAIL).after(9), seqs(10, 11, 12), noCursor());
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("A limit of 1 returns one event from the requested end, with a cursor")
  void limitOne() {
    assertPage(EventQuery.all().first(1), seqs(1), cursor(1));
    assertPage(EventQuery.all().last(1), seqs(12), cursor(12));
    assertPage(EventQuery.all().newestFirst().limit(1), seqs(12), cursor(12));
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("A limit equal to the log size returns the whole log without a cursor")
  void limitEqualToTheLogSize() {
    List<Long> reversed = range(1, SIZE);
    Collections.reverse(reversed);

    assertPage(EventQuery.all().first(SIZE), range(1, SIZE), noCursor());
    assertPage(EventQuery.all().last(SIZE), range(1, SIZE), noCursor());
    assertPage(EventQuery.all().newestFirst().limit(SIZE), reversed, noCursor());
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("A limit larger than the log returns the whole log without a cursor")
  void limitLargerThanTheLog() {
    assertPage(EventQuery.all().first(SIZE + 1), range(1, SIZE), noCursor());
    assertPage(EventQuery.all().last(1000), range(1, SIZE), noCursor());
    assertPage(EventQuery.all().newestFirst().limit(1000).after(9), seqs(12, 11, 10), noCursor());
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("Paging at the first event: after 1 continues, before 2 is the last page")
  void cursorAtTheFirstEvent() {
    assertPage(EventQuery.all().after(1).first(3), seqs(2, 3, 4), cursor(4));
    assertPage(EventQuery.all().before(2).last(3), seqs(1), noCursor());
    assertPage(EventQuery.all().before(2).newestFirst().limit(3), seqs(1), noCursor());
    assertPage(EventQuery.all().before(2).last(1), seqs(1), noCursor());
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("Paging at the last event: after the second-last is the last page, before the last continues")
  void cursorAtTheLastEvent() {
    assertPage(EventQuery.all().after(SIZE - 1).first(3), seqs(12), noCursor());
    assertPage(EventQuery.all().after(SIZE - 1).first(1), seqs(12), noCursor());
    assertPage(EventQuery.all().before(SIZE).last(3), seqs(9, 10, 11), cursor(9));
    assertPage(EventQuery.all().before(SIZE).newestFirst().limit(3), seqs(11, 10, 9), cursor(9));
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("A limited read that reaches the other bound of the query has no cursor")
  void limitedReadStopsAtTheOtherBound() {
    assertPage(EventQuery.all().before(5).first(4), seqs(1, 2, 3, 4), noCursor());
    assertPage(EventQuery.all().before(5).first(3), seqs(1, 2, 3), cursor(3));
    assertPage(EventQuery.all().after(8).last(4), seqs(9, 10, 11, 12), noCursor());
    assertPage(EventQuery.all().after(8).last(3), seqs(10, 11, 12), cursor(10));
    assertPage(EventQuery.all().after(8).newestFirst().limit(4), seqs(12, 11, 10, 9), noCursor());
    assertPage(EventQuery.all().after(3).before(8).last(2), seqs(6, 7), cursor(6));
    assertPage(EventQuery.all().after(3).before(8).last(4), seqs(4, 5, 6, 7), noCursor());
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("Pages of a size that divides the log exactly: the last page has no cursor, in every direction")
  void pageSizeDividingTheLogEndsWithoutACursor() {
    assertPage(EventQuery.all().first(4), seqs(1, 2, 3, 4), cursor(4));
    assertPage(EventQuery.all().after(4).first(4), seqs(5, 6, 7, 8), cursor(8));
    assertPage(EventQuery.all().after(8).first(4), seqs(9, 10, 11, 12), noCursor());

    assertPage(EventQuery.all().last(4), seqs(9, 10, 11, 12), cursor(9));
    assertPage(EventQuery.all().before(9).last(4), seqs(5, 6, 7, 8), cursor(5));
    assertPage(EventQuery.all().before(5).last(4), seqs(1, 2, 3, 4), noCursor());

    assertPage(EventQuery.all().newestFirst().limit(6), seqs(12, 11, 10, 9, 8, 7), cursor(7));
    assertPage(EventQuery.all().newestFirst().before(7).limit(6), seqs(6, 5, 4, 3, 2, 1), noCursor());
  }

  // ---------------------------------------------------------------- walks

  @Test
  @Tag("guarantee-7")
  @DisplayName("A forward walk with cursors returns every event exactly once, for every page size")
  void forwardWalkReconstructsTheLog() {
    for (int size = 1; size <= SIZE + 1; size++) {
      List<List<Event>> pages = walkForward(EventQuery.all(), size);
      assertThat(pages).as("forward pages of %d", size).hasSize((SIZE + size - 1) / size);
      assertThat(flatten(pages)).as("forward walk with pages of %d", size).containsExactlyElementsOf(logged);
    }
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("A backward walk with tail pages (before = cursor) returns every event exactly once, for every page"
      + " size")
  void backwardWalkReconstructsTheLog() {
    for (int size = 1; size <= SIZE + 1; size++) {
      List<List<Event>> pages = walkBackward(EventQuery.all(), size);
      assertThat(pages).as("backward pages of %d", size).hasSize((SIZE + size - 1) / size);
      Collections.reverse(pages);
      assertThat(flatten(pages)).as("backward walk with pages of %d", size).containsExactlyElementsOf(logged);
    }
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("A newest-first walk with cursors returns every event exactly once, newest-first")
  void newestFirstWalkReconstructsTheLog() {
    List<Event> reversed = new ArrayList<>(logged);
    Collections.reverse(reversed);
    for (int size = 1; size <= SIZE + 1; size++) {
      List<List<Event>> pages = walkNewestFirst(EventQuery.all(), size);
      assertThat(flatten(pages)).as("newest-first walk with pages of %d", size).containsExactlyElementsOf(reversed);
    }
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("Forward walks with a filter return exactly the matching events and stop at the last match")
  void filteredForwardWalk() {
    EventQuery userOrTool = EventQuery.all().types("user", "tool");
    EventQuery coder = EventQuery.all().agentId("coder");
    for (int size = 1; size <= 6; size++) {
      assertThat(Events.seqs(flatten(walkForward(userOrTool, size)))).as("user or tool events, pages of %d", size)
          .containsExactly(1L, 3L, 5L, 7L, 9L);
      assertThat(Events.seqs(flatten(walkForward(coder, size)))).as("coder events, pages of %d", size)
          .containsExactly(4L, 7L, 8L);
    }
    assertThat(walkForward(userOrTool, 5)).as("pages of 5 over the 5 user or tool events").hasSize(1);
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("Backward and newest-first walks with a filter return exactly the matching events and stop at the"
      + " first match")
  void filteredBackwardWalk() {
    EventQuery run2 = EventQuery.all().runId("r2");
    EventQuery assistant = EventQuery.all().types("assistant");
    for (int size = 1; size <= 7; size++) {
      List<List<Event>> pages = walkBackward(run2, size);
      Collections.reverse(pages);
      assertThat(Events.seqs(flatten(pages))).as("run r2 events, tail pages of %d", size)
          .containsExactly(5L, 6L, 7L, 8L);

      List<List<Event>> assistantPages = walkBackward(assistant, size);
      Collections.reverse(assistantPages);
      assertThat(Events.seqs(flatten(assistantPages))).as("assistant events, tail pages of %d", size)
          .containsExactly(2L, 4L, 6L, 8L, 10L, 12L);

      assertThat(Events.seqs(flatten(walkNewestFirst(run2, size)))).as("run r2 events newest-first, pages of %d", size)
          .containsExactly(8L, 7L, 6L, 5L);
    }
    assertThat(walkBackward(run2, 4)).as("tail pages of 4 over the 4 events of run r2").hasSize(1);
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("The cursor is absent as soon as no matching event remains, even when the log goes on")
  void cursorIsAbsentWhenNoMatchingEventRemains() {
    EventQuery tools = EventQuery.all().types("tool");

    assertPage(tools.first(2), seqs(3, 7), noCursor());
    assertPage(tools.last(2), seqs(3, 7), noCursor());
    assertPage(tools.newestFirst().limit(2), seqs(7, 3), noCursor());
    assertPage(tools.first(1), seqs(3), cursor(3));
    assertPage(tools.after(3).first(1), seqs(7), noCursor());
    assertPage(tools.last(1), seqs(7), cursor(7));
    assertPage(tools.before(7).last(1), seqs(3), noCursor());
  }

  // ---------------------------------------------------------------- filters

  @Test
  @Tag("guarantee-7")
  @DisplayName("runId selects the events of that run only")
  void runIdFilter() {
    assertPage(EventQuery.all().runId("r1"), seqs(1, 2, 3, 4), noCursor());
    assertPage(EventQuery.all().runId("r3"), seqs(9, 10, 12), noCursor());
    assertPage(EventQuery.all().runId("R1"), seqs(), noCursor());
    assertPage(EventQuery.all().runId("no-such-run"), seqs(), noCursor());
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("types selects events of one type, or of any of several types")
  void typeFilter() {
    assertPage(EventQuery.all().types("user"), seqs(1, 5, 9), noCursor());
    assertPage(EventQuery.all().types("note"), seqs(11), noCursor());
    assertPage(EventQuery.all().types("user", "tool"), seqs(1, 3, 5, 7, 9), noCursor());
    assertPage(EventQuery.all().types("tool", "note", "no-such-type"), seqs(3, 7, 11), noCursor());
    assertPage(EventQuery.all().types("no-such-type"), seqs(), noCursor());
    assertPage(EventQuery.all().types("User"), seqs(), noCursor());
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("agentId selects the events of that agent only")
  void agentIdFilter() {
    assertPage(EventQuery.all().agentId("coder"), seqs(4, 7, 8), noCursor());
    assertPage(EventQuery.all().agentId("human"), seqs(1, 5, 9), noCursor());
    assertPage(EventQuery.all().agentId("nobody"), seqs(), noCursor());
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("since is inclusive: an event at exactly that instant matches")
  void sinceIsInclusive() {
    assertPage(EventQuery.all().since(at(5)), range(5, SIZE), noCursor());
    assertPage(EventQuery.all().since(at(5).minusNanos(1000)), range(5, SIZE), noCursor());
    assertPage(EventQuery.all().since(at(5).plusNanos(1000)), range(6, SIZE), noCursor());
    assertPage(EventQuery.all().since(at(SIZE)), seqs(SIZE), noCursor());
    assertPage(EventQuery.all().since(at(SIZE + 1)), seqs(), noCursor());
    assertPage(EventQuery.all().since(Instant.EPOCH), range(1, SIZE), noCursor());
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("since compares timestamps, not seqs: events with given earlier timestamps are left out")
  void sinceComparesTimestamps() {
    String other = id("times");
    Instant base = Instant.parse("2030-06-01T00:00:00Z");
    log().append(other, event("late").withTimestamp(base.plusSeconds(30)));
    log().append(other, event("early").withTimestamp(base.plusSeconds(10)));
    log().append(other, event("exact").withTimestamp(base.plusSeconds(20)));
    log().append(other, event("earliest").withTimestamp(base));

    EventPage page = log().read(other, EventQuery.all().since(base.plusSeconds(20)));

    assertThat(Events.ids(page.items())).as("events at or after +20s, in seq order").containsExactly("late", "exact");
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("Filters combine: every filter that is set must match")
  void filtersCombine() {
    assertPage(EventQuery.all().runId("r2").types("assistant"), seqs(6, 8), noCursor());
    assertPage(EventQuery.all().runId("r2").agentId("coder"), seqs(7, 8), noCursor());
    assertPage(EventQuery.all().runId("r2").agentId("coder").types("tool"), seqs(7), noCursor());
    assertPage(EventQuery.all().types("assistant").agentId("planner").since(at(6)), seqs(6, 10, 12), noCursor());
    assertPage(EventQuery.all().runId("r1").agentId("human").types("assistant"), seqs(), noCursor());
    assertPage(EventQuery.all().types("user", "assistant").runId("r3").after(9).before(12), seqs(10), noCursor());
  }

  @Test
  @Tag("guarantee-7")
  @DisplayName("Filters apply before the limit, from whichever end the query names")
  void filtersApplyBeforeTheLimit() {
    assertPage(EventQuery.all().types("user").last(2), seqs(5, 9), cursor(5));
    assertPage(EventQuery.all().types("user").first(2), seqs(1, 5), cursor(5));
    assertPage(EventQuery.all().types("assistant").after(4).first(2), seqs(6, 8), cursor(8));
    assertPage(EventQuery.all().agentId("planner").newestFirst().limit(2), seqs(12, 10), cursor(10));
    assertPage(EventQuery.all().since(at(7)).types("assistant").last(3), seqs(8, 10, 12), noCursor());
    assertPage(EventQuery.all().since(at(7)).types("assistant").last(2), seqs(10, 12), cursor(10));
  }

  // ---------------------------------------------------------------- find

  @Test
  @Tag("guarantee-6")
  @DisplayName("find returns the event with that id, and is empty for an unknown id, session or another session's id")
  void findByEventId() {
    String other = id("other");
    log().append(other, event("only-there"));

    assertThat(log().find(session, "e-7")).contains(logged.get(6));
    assertThat(log().find(session, "e-99")).isEmpty();
    assertThat(log().find(session, "E-7")).isEmpty();
    assertThat(log().find(session, "only-there")).as("another session's event id").isEmpty();
    assertThat(log().find("unknown-session", "e-7")).isEmpty();
  }

  @Test
  @Tag("guarantee-2")
  @DisplayName("Reads after further appends still return the earlier events unchanged")
  void earlierEventsNeverChange() {
    log().appendAll(session, List.of(event("x"), event("y")));

    assertThat(read(EventQuery.all().first(SIZE)).items()).containsExactlyElementsOf(logged);
    assertThat(readAll(log(), session)).hasSize(SIZE + 2);
  }

  // ---------------------------------------------------------------- walking helpers

  private static List<Event> flatten(List<List<Event>> pages) {
    List<Event> all = new ArrayList<>();
    pages.forEach(all::addAll);
    return all;
  }

  private List<List<Event>> walkForward(EventQuery query, int size) {
    return walk(query, size, ReadDirection.OLDEST_FIRST);
  }

  private List<List<Event>> walkBackward(EventQuery query, int size) {
    return walk(query, size, ReadDirection.TAIL);
  }

  private List<List<Event>> walkNewestFirst(EventQuery query, int size) {
    return walk(query, size, ReadDirection.NEWEST_FIRST);
  }

  /** Pages through {@code query} with cursors in {@code direction} and returns the pages as read. */
  private List<List<Event>> walk(EventQuery query, int size, ReadDirection direction) {
    List<List<Event>> pages = new ArrayList<>();
    OptionalLong cursor = OptionalLong.empty();
    do {
      EventQuery pageQuery = query.direction(direction).limit(size);
      if (cursor.isPresent()) {
        pageQuery = direction == ReadDirection.OLDEST_FIRST
            ? pageQuery.after(cursor.getAsLong())
            : pageQuery.before(cursor.getAsLong());
      }
      EventPage page = read(pageQuery);
      String where = direction + " page " + (pages.size() + 1) + " of size " + size + " (" + pageQuery + ")";
      assertThat(page.items())
          .as("%s: empty after a cursor, so the previous page should have had no cursor", where)
          .isNotEmpty()
          .hasSizeLessThanOrEqualTo(size);
      List<Long> pageSeqs = Events.seqs(page.items());
      if (direction == ReadDirection.NEWEST_FIRST) {
        assertThat(pageSeqs).as("%s is newest-first", where).isSortedAccordingTo(Collections.reverseOrder());
        page.nextCursor().ifPresent(next -> assertThat(next).as("%s cursor = oldest item", where)
            .isEqualTo(pageSeqs.get(pageSeqs.size() - 1)));
      } else {
        assertThat(pageSeqs).as("%s is oldest-first", where).isSorted();
        long expected = direction == ReadDirection.TAIL ? pageSeqs.get(0) : pageSeqs.get(pageSeqs.size() - 1);
        page.nextCursor().ifPresent(next -> assertThat(next).as("%s cursor", where).isEqualTo(expected));
      }
      pages.add(page.items());
      OptionalLong previous = cursor;
      cursor = page.nextCursor();
      if (previous.isPresent() && cursor.isPresent()) {
        if (direction == ReadDirection.OLDEST_FIRST) {
          assertThat(cursor.getAsLong()).as("%s: the cursor moves forward", where)
              .isGreaterThan(previous.getAsLong());
        } else {
          assertThat(cursor.getAsLong()).as("%s: the cursor moves backward", where).isLessThan(previous.getAsLong());
        }
      }
      assertThat(pages.size()).as("pages walked (runaway cursor?)").isLessThanOrEqualTo(2 * SIZE + 2);
    } while (cursor.isPresent());
    return pages;
  }
}
