package dev.sessionstore.conformance;

import dev.sessionstore.NewEvent;
import static dev.sessionstore.conformance.Lookups.present;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.Capability;
import dev.sessionstore.Chapter;
import dev.sessionstore.Event;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.NewSummary;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.Revival;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Summaries;
import dev.sessionstore.Summary;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Compaction summaries, the revival read and chapter paging (guarantee 9 of docs/guarantees.md): summaries are keyed by
 * {@code toSeq}; the revival read is the latest summary plus the events after its {@code toSeq}; the chapter of a
 * summary is the events after the previous summary's {@code toSeq} up to and including its own, so chapters and the
 * revival tail tile the log. Requires {@link Capability#SUMMARIES}.
 *
 * <p>If this fails, check the bounds: revival events are {@code seq > latest.toSeq} (exclusive), a chapter is
 * {@code previous.toSeq < seq <= toSeq} and starts at seq 1 when there is no previous summary; "latest" and
 * "previous" compare {@code toSeq} numerically, never by insertion order, id or text; chapters are delimited by the
 * neighbouring summaries' {@code toSeq}, not by a summary's own {@code fromSeq}; and a put with a stored
 * {@code toSeq} replaces that summary instead of adding a second one.
 */
public abstract class SummaryContract extends Contract {

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected SummaryContract(SessionStoreConformance kit) {
    super(kit);
  }

  @Override
  protected Set<Capability> requiredCapabilities() {
    return Set.of(Capability.SUMMARIES);
  }

  private Summaries summaries() {
    return store.summaries();
  }

  /** Appends {@code count} events to {@code sessionId}, one second apart, and returns them as stored. */
  private List<Event> appendEvents(String sessionId, int count) {
    List<Event> appended = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      appended.add(store.events().append(sessionId, event(id("e"))));
      clock.advance(Duration.ofSeconds(1));
    }
    return appended;
  }

  /** A session with {@code count} events. */
  private String sessionWithEvents(int count) {
    String session = id("session");
    appendEvents(session, count);
    return session;
  }

  private Summary put(String sessionId, long fromSeq, long toSeq) {
    return summaries().put(sessionId, NewSummary.of(fromSeq, toSeq, json("{\"upTo\":" + toSeq + "}")));
  }

  private static List<Long> toSeqs(List<Summary> summaries) {
    return summaries.stream().map(Summary::toSeq).collect(Collectors.toList());
  }

  @Test
  @Tag("guarantee-9")
  @DisplayName("put returns the summary as stored, and list shows the same summary")
  void putReturnsTheStoredSummary() {
    String session = sessionWithEvents(5);

    Summary stored = summaries().put(session, new NewSummary(2, 4, json("{\"text\":\"the user asked\"}"), 3));

    assertThat(stored.sessionId()).isEqualTo(session);
    assertThat(stored.fromSeq()).isEqualTo(2);
    assertThat(stored.toSeq()).isEqualTo(4);
    assertThat(stored.content()).isEqualTo(json("{\"text\":\"the user asked\"}"));
    assertThat(stored.version()).isEqualTo(3);
    assertThat(stored.createdAt()).isEqualTo(clock.instant());
    assertThat(summaries().list(session)).containsExactly(stored);
    assertThat(summaries().latest(session)).contains(stored);
  }

  @Test
  @Tag("guarantee-9")
  @DisplayName("latest is the summary with the greatest toSeq, whatever order the summaries were put in")
  void latestIsTheGreatestToSeq() {
    String session = sessionWithEvents(12);
    put(session, 1, 10);
    put(session, 1, 3);
    put(session, 1, 9);

    assertThat(present(summaries().latest(session), "latest summary").toSeq()).as("toSeq of the latest summary")
        .isEqualTo(10);
  }

  @Test
  @Tag("guarantee-9")
  @DisplayName("list orders summaries by ascending toSeq, numerically (2 before 10), whatever the insert order")
  void listIsOrderedByToSeq() {
    String session = sessionWithEvents(12);
    put(session, 1, 10);
    put(session, 1, 2);
    put(session, 3, 7);

    assertThat(toSeqs(summaries().list(session))).containsExactly(2L, 7L, 10L);
  }

  @Test
  @Tag("guarantee-9")
  @DisplayName("Putting a summary with a stored toSeq replaces that summary")
  void putWithTheSameToSeqReplaces() {
    String session = sessionWithEvents(6);
    put(session, 1, 4);
    Summary replacement = summaries().put(session, new NewSummary(2, 4, json("{\"better\":true}"), 2));

    assertThat(summaries().list(session)).as("summaries after a replacement").containsExactly(replacement);
    assertThat(replacement.fromSeq()).isEqualTo(2);
    assertThat(replacement.version()).isEqualTo(2);
    assertThat(present(summaries().latest(session), "latest").content()).isEqualTo(json("{\"better\":true}"));
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("A summary whose toSeq is past the last seq is rejected and nothing is stored; toSeq = last is fine")
  void toSeqPastTheLastSeqIsRejected() {
    String session = sessionWithEvents(3);

    assertThatThrownBy(() -> put(session, 1, 4)).isInstanceOf(InvalidArgumentException.class);
    assertThat(summaries().list(session)).as("summaries after the rejected put").isEmpty();

    assertThat(put(session, 1, 3).toSeq()).isEqualTo(3);
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("A summary of a session whose log is empty is rejected")
  void aSummaryOfAnEmptyLogIsRejected() {
    String session = id("session");
    store.sessions().save(SessionWrite.of(session));

    assertThatThrownBy(() -> put(session, 1, 1)).isInstanceOf(InvalidArgumentException.class);
    assertThat(summaries().list(session)).isEmpty();
  }

  @Test
  @DisplayName("Putting a summary for an unknown session is NotFoundException and does not create the session")
  void putOnAnUnknownSessionIsNotFound() {
    assertThatThrownBy(() -> put("no-such-session", 1, 1)).isInstanceOf(NotFoundException.class);

    assertThat(store.sessions().find("no-such-session")).isEmpty();
    assertThat(summaries().list("no-such-session")).isEmpty();
  }

  @Test
  @Tag("guarantee-9")
  @DisplayName("Lookups of an unknown session are empty: latest, list, revive and chapter")
  void lookupsOfAnUnknownSessionAreEmpty() {
    String other = sessionWithEvents(3);
    put(other, 1, 3);

    assertThat(summaries().latest("no-such-session")).isEmpty();
    assertThat(summaries().list("no-such-session")).isEmpty();
    assertThat(summaries().revive("no-such-session")).isEqualTo(new Revival(Optional.empty(), List.of(), 0));
    assertThat(summaries().chapter("no-such-session", 3)).isEmpty();
  }

  @Test
  @Tag("guarantee-9")
  @DisplayName("Summaries are per session: one session's summaries never show in another's")
  void summariesArePerSession() {
    String first = sessionWithEvents(4);
    String second = sessionWithEvents(4);
    put(first, 1, 3);

    assertThat(summaries().list(second)).isEmpty();
    assertThat(summaries().latest(second)).isEmpty();
    assertThat(Events.seqs(summaries().revive(second).events())).containsExactly(1L, 2L, 3L, 4L);
  }

  @Test
  @Tag("guarantee-9")
  @DisplayName("Revival without a summary returns every event, oldest first, and no summary")
  void reviveWithoutASummaryReturnsEveryEvent() {
    String session = id("session");
    List<Event> log = appendEvents(session, 5);

    Revival revival = summaries().revive(session);

    assertThat(revival.summary()).isEmpty();
    assertThat(revival.events()).isEqualTo(log);
    assertThat(revival.lastSeq()).as("last seq of the revival read").isEqualTo(5);
  }

  @Test
  @Tag("guarantee-9")
  @DisplayName("Revival returns the latest summary and only the events after its toSeq")
  void reviveReturnsTheLatestSummaryAndOnlyLaterEvents() {
    String session = id("session");
    List<Event> log = appendEvents(session, 8);
    put(session, 1, 3);
    Summary latest = put(session, 4, 5);

    Revival revival = summaries().revive(session);

    assertThat(revival.summary()).as("summary of the revival read").contains(latest);
    assertThat(Events.seqs(revival.events())).as("seqs of the revival events after summary toSeq 5")
        .containsExactly(6L, 7L, 8L);
    assertThat(revival.events()).isEqualTo(log.subList(5, 8));
    assertThat(revival.lastSeq()).as("last seq of the revival read").isEqualTo(8);
  }

  @Test
  @Tag("guarantee-9")
  @DisplayName("Revival when the latest summary covers the whole log has no events, until the next append")
  void reviveWhenTheSummaryCoversTheWholeLog() {
    String session = sessionWithEvents(4);
    Summary latest = put(session, 1, 4);

    assertThat(summaries().revive(session)).isEqualTo(new Revival(Optional.of(latest), List.of(), 4));

    Event next = store.events().append(session, event(id("e")));
    assertThat(summaries().revive(session).events()).containsExactly(next);
    assertThat(summaries().revive(session).lastSeq()).as("last seq of the revival after an append").isEqualTo(5);
  }

  @Test
  @Tag("guarantee-9")
  @DisplayName("Revival and chapters hold the events of every agent of the session")
  void reviveAndChaptersHoldEveryAgent() {
    String session = id("session");
    for (int i = 1; i <= 6; i++) {
      store.events().append(session, event(id("e")).withAgentId(i % 2 == 0 ? "planner" : "coder"));
    }
    put(session, 1, 3);

    assertThat(Events.seqs(summaries().revive(session).events())).containsExactly(4L, 5L, 6L);
    assertThat(Events.seqs(present(summaries().chapter(session, 3), "chapter 3").events()))
        .containsExactly(1L, 2L, 3L);
  }

  @Test
  @Tag("guarantee-9")
  @DisplayName("The first chapter has no previous summary and holds events 1 through its toSeq")
  void theFirstChapterStartsAtSeqOne() {
    String session = id("session");
    List<Event> log = appendEvents(session, 10);
    Summary first = put(session, 2, 3);
    put(session, 4, 7);

    Chapter chapter = present(summaries().chapter(session, 3), "chapter closed by toSeq 3");

    assertThat(chapter.summary()).isEqualTo(first);
    assertThat(chapter.previous()).as("previous summary of the first chapter").isEmpty();
    assertThat(Events.seqs(chapter.events())).as("seqs of the first chapter").containsExactly(1L, 2L, 3L);
    assertThat(chapter.events()).isEqualTo(log.subList(0, 3));
  }

  @Test
  @Tag("guarantee-9")
  @DisplayName("A chapter holds the events after the previous summary's toSeq up to and including its own toSeq")
  void aChapterHoldsEventsAfterThePreviousSummary() {
    String session = id("session");
    List<Event> log = appendEvents(session, 10);
    Summary previous = put(session, 1, 3);
    Summary closing = put(session, 4, 7);

    Chapter chapter = present(summaries().chapter(session, 7), "chapter closed by toSeq 7");

    assertThat(chapter.summary()).isEqualTo(closing);
    assertThat(chapter.previous()).as("previous summary of chapter 7").contains(previous);
    assertThat(Events.seqs(chapter.events())).as("seqs of the chapter closed by toSeq 7 after toSeq 3")
        .containsExactly(4L, 5L, 6L, 7L);
    assertThat(chapter.events()).isEqualTo(log.subList(3, 7));
  }

  @Test
  @Tag("guarantee-9")
  @DisplayName("Chapters are bounded by neighbouring toSeqs, not by fromSeq: cumulative summaries still tile")
  void chaptersFollowToSeqNotFromSeq() {
    String session = sessionWithEvents(9);
    put(session, 1, 3);
    put(session, 1, 6);
    put(session, 1, 9);

    assertThat(Events.seqs(present(summaries().chapter(session, 6), "chapter 6").events()))
        .as("seqs of chapter 6 whose summary starts at fromSeq 1").containsExactly(4L, 5L, 6L);
    assertThat(present(summaries().chapter(session, 9), "chapter 9").previous().map(Summary::toSeq)).contains(6L);
  }

  @Test
  @Tag("guarantee-9")
  @DisplayName("Walking chapters back from the latest summary, plus the revival tail, covers every seq exactly once")
  void chaptersTileTheLog() {
    String session = id("session");
    List<Event> log = appendEvents(session, 15);
    for (long toSeq : List.of(12L, 2L, 7L, 6L)) {
      put(session, 1, toSeq);
    }

    Revival revival = summaries().revive(session);
    List<Event> walked = new ArrayList<>(revival.events());
    Optional<Summary> cursor = revival.summary();
    List<Long> visited = new ArrayList<>();
    while (cursor.isPresent()) {
      long toSeq = cursor.get().toSeq();
      visited.add(toSeq);
      assertThat(visited).as("chapters visited so far (a loop?)").hasSizeLessThanOrEqualTo(4);
      Chapter chapter = present(summaries().chapter(session, toSeq), "chapter closed by toSeq %s", toSeq);
      walked.addAll(0, chapter.events());
      cursor = chapter.previous();
    }

    assertThat(visited).as("summaries visited walking back").containsExactly(12L, 7L, 6L, 2L);
    assertThat(Events.seqs(walked)).as("seqs covered by the chapters and the revival tail")
        .isEqualTo(Events.range(1, 15));
    assertThat(walked).isEqualTo(log);
  }

  @Test
  @Tag("guarantee-9")
  @DisplayName("chapter of a toSeq that closes no summary is empty")
  void chapterOfAnUnknownToSeqIsEmpty() {
    String session = sessionWithEvents(10);
    put(session, 1, 3);
    put(session, 4, 7);

    assertThat(summaries().chapter(session, 4)).as("chapter 4 (a fromSeq, not a toSeq)").isEmpty();
    assertThat(summaries().chapter(session, 10)).as("chapter 10 (no summary)").isEmpty();
  }

  @Test
  @Tag("guarantee-9")
  @DisplayName("Replacing the latest summary is what the next revival read returns")
  void revivalSeesAReplacedSummary() {
    String session = sessionWithEvents(5);
    put(session, 1, 5);
    summaries().put(session, new NewSummary(1, 5, json("{\"v\":2}"), 2));

    Revival revival = summaries().revive(session);

    assertThat(present(revival.summary(), "revival summary").content()).isEqualTo(json("{\"v\":2}"));
    assertThat(revival.summary().get().version()).isEqualTo(2);
    assertThat(revival.events()).isEmpty();
  }

  @Test
  @Tag("guarantee-12")
  @DisplayName("After a truncation, summaries with toSeq at or past the cut are gone and revival follows the cut")
  void truncationRemovesSummariesAtOrPastTheCut() {
    assumeDeclared(Capability.TRUNCATION);
    String session = sessionWithEvents(10);
    Summary kept = put(session, 1, 2);
    put(session, 3, 5);
    put(session, 6, 8);

    store.events().truncate(session, 5);

    assertThat(summaries().list(session)).as("summaries after truncating at seq 5").containsExactly(kept);
    assertThat(summaries().latest(session)).contains(kept);
    assertThat(summaries().chapter(session, 5)).as("chapter of a removed summary").isEmpty();
    Revival revival = summaries().revive(session);
    assertThat(revival.summary()).contains(kept);
    assertThat(Events.seqs(revival.events())).containsExactly(3L, 4L);
  }

  @Test
  @DisplayName("Summary content is stored as given, documents of any shape")
  void summaryContentRoundTrips() {
    String session = sessionWithEvents(3);
    Json content = json("[{\"role\":\"system\",\"text\":\"caf\u00e9 \\ud83d\\ude80\"},42,null,[]]");

    summaries().put(session, NewSummary.of(1, 3, content));

    assertThat(present(summaries().latest(session), "latest").content()).isEqualTo(content);
  }

  @Test
  @Tag("guarantee-9")
  @DisplayName("Revival and chapters narrowed to one agent keep the session's summaries and only that agent's events")
  void agentScopedRevivalAndChapters() {
    String session = id("session");
    List<NewEvent> events = new java.util.ArrayList<>();
    for (int i = 1; i <= 6; i++) {
      events.add(event("e" + i).withAgentId(i % 2 == 0 ? "planner" : "researcher"));
    }
    store.events().appendAll(session, events);
    Summary first = put(session, 1, 2);
    Summary second = put(session, 3, 4);

    Revival planner = summaries().revive(session, "planner");
    assertThat(planner.summary()).contains(second);
    assertThat(planner.events()).extracting(Event::id).containsExactly("e6");
    assertThat(summaries().revive(session, "nobody").events()).isEmpty();
    assertThat(summaries().revive(session, "nobody").lastSeq()).as("the session's last seq, whatever the agent")
        .isEqualTo(6);
    assertThat(summaries().revive(session, "researcher").events()).extracting(Event::id).containsExactly("e5");

    Chapter chapter = summaries().chapter(session, 4, "researcher").orElseThrow();
    assertThat(chapter.summary()).isEqualTo(second);
    assertThat(chapter.previous()).contains(first);
    assertThat(chapter.events()).extracting(Event::id).containsExactly("e3");
    assertThat(summaries().chapter(session, 2, "planner").orElseThrow().events()).extracting(Event::id)
        .containsExactly("e2");
    assertThat(summaries().chapter(session, 3, "planner")).as("a chapter no summary closes").isEmpty();
    assertThat(summaries().revive(id("session"), "planner").events()).as("an unknown session").isEmpty();
    assertThat(summaries().revive(id("session"), "planner").lastSeq()).as("an unknown session's last seq").isZero();
  }
}
