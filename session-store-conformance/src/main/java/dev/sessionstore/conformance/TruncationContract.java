package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.Capability;
import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewSummary;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.SeqConflictException;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Summary;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Truncation (guarantee 12 of docs/guarantees.md): cutting a log at seq N removes event N and every later event of
 * every agent, and every summary whose {@code toSeq >= N}; the log then ends at N - 1 and the next append gets seq N.
 * Requires {@link Capability#TRUNCATION}.
 *
 * <p>If this fails, check that the cut is inclusive ({@code seq >= N}), applies to the whole session rather than to
 * one agent or run, resets the seq counter (a separate sequence or "next seq" column must be set back to N, not left
 * where it was), removes the cut events' ids from the idempotency index so they can be appended again as new
 * events, removes the summaries at or past the cut in the same transaction, and validates the session and
 * {@code fromSeq} before changing anything.
 */
public abstract class TruncationContract extends Contract {

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected TruncationContract(SessionStoreConformance kit) {
    super(kit);
  }

  @Override
  protected Set<Capability> requiredCapabilities() {
    return Set.of(Capability.TRUNCATION);
  }

  /** Appends {@code count} events alternating between two agents, one second apart. */
  private List<Event> appendEvents(String sessionId, int count) {
    List<Event> appended = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      appended.add(store.events().append(sessionId, event(id("e")).withAgentId(i % 2 == 0 ? "writer" : "critic")));
      clock.advance(Duration.ofSeconds(1));
    }
    return appended;
  }

  private List<Event> log(String sessionId) {
    return Events.readAll(store.events(), sessionId);
  }

  @Test
  @Tag("guarantee-12")
  @DisplayName("Truncating at seq N removes N and every later event and returns how many it removed")
  void truncateRemovesTheCutEventAndEverythingAfter() {
    String session = id("session");
    List<Event> before = appendEvents(session, 7);

    int removed = store.events().truncate(session, 5);

    assertThat(removed).as("events removed by truncating 7 events at seq 5").isEqualTo(3);
    assertThat(log(session)).as("log after truncating at seq 5").isEqualTo(before.subList(0, 4));
    assertThat(store.events().lastSeq(session)).isEqualTo(4);
    assertThat(store.events().find(session, before.get(4).id())).as("the event at the cut").isEmpty();
    assertThat(store.events().find(session, before.get(6).id())).as("the last event").isEmpty();
  }

  @Test
  @Tag("guarantee-12")
  @DisplayName("Truncation cuts across agents: every agent's events at or after the cut go")
  void truncateCutsAcrossAgents() {
    String session = id("session");
    appendEvents(session, 6);

    store.events().truncate(session, 3);

    assertThat(store.events().read(session, EventQuery.all().agentId("writer")).items())
        .extracting(Event::seq).containsExactly(1L);
    assertThat(store.events().read(session, EventQuery.all().agentId("critic")).items())
        .extracting(Event::seq).containsExactly(2L);
  }

  @Test
  @Tag("guarantee-12")
  @DisplayName("After truncating at seq N the next append gets seq N, and later ones follow without gaps")
  void theNextAppendContinuesFromTheCut() {
    String session = id("session");
    appendEvents(session, 6);
    store.events().truncate(session, 4);

    Event next = store.events().append(session, event(id("edited")));
    Event after = store.events().append(session, event(id("reply")));

    assertThat(next.seq()).as("seq of the first append after truncating at 4").isEqualTo(4);
    assertThat(after.seq()).isEqualTo(5);
    assertThat(Events.seqs(log(session))).isEqualTo(Events.range(1, 5));
  }

  @Test
  @Tag("guarantee-5")
  @DisplayName("After truncating at seq N, an append expecting last seq N - 1 succeeds; expecting the old end fails")
  void expectedSeqFollowsTheCut() {
    String session = id("session");
    appendEvents(session, 6);
    store.events().truncate(session, 3);

    assertThatThrownBy(() -> store.events().append(session, event(id("stale")), 6))
        .isInstanceOf(SeqConflictException.class)
        .satisfies(e -> assertThat(((SeqConflictException) e).actualSeq()).isEqualTo(2));
    assertThat(store.events().append(session, event(id("fresh")), 2).seq()).isEqualTo(3);
  }

  @Test
  @Tag("guarantee-12")
  @DisplayName("Truncating at seq 1 empties the log but keeps the session; the next append gets seq 1")
  void truncatingAtOneEmptiesTheLog() {
    String session = id("session");
    appendEvents(session, 3);

    assertThat(store.events().truncate(session, 1)).isEqualTo(3);

    assertThat(log(session)).isEmpty();
    assertThat(store.events().lastSeq(session)).isZero();
    assertThat(store.sessions().find(session)).as("the session after emptying its log").isPresent();
    assertThat(store.events().append(session, event(id("first-again"))).seq()).isEqualTo(1);
  }

  @Test
  @Tag("guarantee-12")
  @DisplayName("Truncating at the last seq removes exactly the last event, and the next append takes its seq")
  void truncatingAtTheLastSeqRemovesTheLastEvent() {
    String session = id("session");
    List<Event> before = appendEvents(session, 3);

    int removed = store.events().truncate(session, 3);

    assertThat(removed).as("events removed by truncating 3 events at seq 3").isEqualTo(1);
    assertThat(log(session)).as("log after truncating at its last seq").isEqualTo(before.subList(0, 2));
    assertThat(store.events().find(session, before.get(2).id())).as("the last event, cut").isEmpty();
    assertThat(store.events().append(session, event(id("e"))).seq()).isEqualTo(3);
  }

  @Test
  @Tag("guarantee-12")
  @DisplayName("Truncating past the end removes nothing and returns 0")
  void truncatingPastTheEndRemovesNothing() {
    String session = id("session");
    List<Event> before = appendEvents(session, 3);

    assertThat(store.events().truncate(session, 4)).as("truncating at latest + 1").isZero();
    assertThat(store.events().truncate(session, 1_000)).as("truncating far past the end").isZero();

    assertThat(log(session)).isEqualTo(before);
    assertThat(store.events().append(session, event(id("e"))).seq()).isEqualTo(4);
  }

  @Test
  @Tag("guarantee-12")
  @DisplayName("Truncating a session whose log is empty returns 0")
  void truncatingAnEmptyLogRemovesNothing() {
    String session = id("session");
    store.sessions().save(SessionWrite.of(session));

    assertThat(store.events().truncate(session, 1)).isZero();
    assertThat(store.events().lastSeq(session)).isZero();
  }

  @Test
  @Tag("guarantee-3")
  @DisplayName("Ids of removed events can be appended again, with any content, as new events at the new end")
  void removedIdsCanBeAppendedAgain() {
    String session = id("session");
    List<Event> before = appendEvents(session, 4);
    store.events().truncate(session, 2);
    String reusedId = before.get(2).id();

    Event again = store.events().append(session,
        NewEvent.of("edited_message", json("{\"text\":\"edited\"}")).withId(reusedId));

    assertThat(again.seq()).as("seq of a re-appended removed id").isEqualTo(2);
    assertThat(again.type()).isEqualTo("edited_message");
    assertThat(store.events().find(session, reusedId)).contains(again);
    assertThat(store.events().append(session, NewEvent.of("edited_message", json("{\"text\":\"edited\"}"))
        .withId(reusedId)).seq()).as("replaying the re-appended event").isEqualTo(2);
  }

  @Test
  @Tag("guarantee-12")
  @DisplayName("Truncation removes the summaries whose toSeq is at or past the cut and keeps earlier ones")
  void truncationRemovesSummariesAtOrPastTheCut() {
    assumeDeclared(Capability.SUMMARIES);
    String session = id("session");
    appendEvents(session, 10);
    Summary kept = store.summaries().put(session, NewSummary.of(1, 4, json("{\"to\":4}")));
    store.summaries().put(session, NewSummary.of(5, 5, json("{\"to\":5}")));
    store.summaries().put(session, NewSummary.of(6, 9, json("{\"to\":9}")));

    store.events().truncate(session, 5);

    assertThat(store.summaries().list(session)).as("summaries after truncating at seq 5 (toSeq >= 5 must go)")
        .containsExactly(kept);
    assertThat(store.summaries().latest(session)).as("latest summary after truncating").contains(kept);
  }

  @Test
  @Tag("guarantee-12")
  @DisplayName("A summary can be put again at a removed toSeq once the log has grown back")
  void summariesFollowTheRegrownLog() {
    assumeDeclared(Capability.SUMMARIES);
    String session = id("session");
    appendEvents(session, 6);
    store.summaries().put(session, NewSummary.of(1, 6, json("{\"old\":true}")));
    store.events().truncate(session, 3);

    assertThatThrownBy(() -> store.summaries().put(session, NewSummary.of(1, 6, json("{\"x\":1}"))))
        .as("a summary past the truncated end").isInstanceOf(InvalidArgumentException.class);
    appendEvents(session, 4);
    Summary regrown = store.summaries().put(session, NewSummary.of(1, 6, json("{\"new\":true}")));

    assertThat(store.summaries().list(session)).containsExactly(regrown);
  }

  @Test
  @DisplayName("Truncating an unknown session is NotFoundException and does not create it")
  void truncatingAnUnknownSessionIsNotFound() {
    assertThatThrownBy(() -> store.events().truncate("no-such-session", 1)).isInstanceOf(NotFoundException.class);

    assertThat(store.sessions().find("no-such-session")).isEmpty();
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("Truncating at seq 0 or below is InvalidArgumentException and removes nothing")
  void truncatingBelowSeqOneIsRejected() {
    String session = id("session");
    List<Event> before = appendEvents(session, 3);

    assertThatThrownBy(() -> store.events().truncate(session, 0)).isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> store.events().truncate(session, -5)).isInstanceOf(InvalidArgumentException.class);

    assertThat(log(session)).isEqualTo(before);
  }

  @Test
  @Tag("guarantee-12")
  @DisplayName("Truncating one session leaves every other session's log alone")
  void truncationIsPerSession() {
    String first = id("session");
    String second = id("session");
    appendEvents(first, 4);
    List<Event> other = appendEvents(second, 4);

    store.events().truncate(first, 2);

    assertThat(log(second)).isEqualTo(other);
    assertThat(store.events().append(second, event(id("e"))).seq()).isEqualTo(5);
  }

  @Test
  @Tag("guarantee-12")
  @DisplayName("Reads after a truncation page as over a log that always ended at the cut")
  void readsAfterTruncationAreConsistent() {
    String session = id("session");
    appendEvents(session, 8);
    store.events().truncate(session, 6);

    assertThat(store.events().read(session, EventQuery.all().last(2)).items()).extracting(Event::seq)
        .containsExactly(4L, 5L);
    assertThat(store.events().read(session, EventQuery.all().newestFirst().limit(1)).items())
        .extracting(Event::seq).containsExactly(5L);
    assertThat(store.events().read(session, EventQuery.all().after(4)).nextCursor()).isEmpty();
  }

  @Test
  @Tag("guarantee-12")
  @DisplayName("Truncating twice at descending seqs removes only what is still there")
  void repeatedTruncationsCountOnlyWhatRemains() {
    String session = id("session");
    appendEvents(session, 10);

    assertThat(store.events().truncate(session, 8)).isEqualTo(3);
    assertThat(store.events().truncate(session, 8)).isZero();
    assertThat(store.events().truncate(session, 3)).isEqualTo(5);

    assertThat(log(session).stream().map(Event::seq).collect(Collectors.toList())).containsExactly(1L, 2L);
  }
}
