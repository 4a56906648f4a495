package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Chapter;
import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewSummary;
import dev.sessionstore.Revival;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Summary;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Revivals and chapters longer than the page one statement returns: they come back whole, in seq order, for the
 * whole session and for one agent, the same as the plain reads of those ranges.
 */
class LongRevivalTest {

  private static final String SESSION = "long";
  /** More than two pages of a revival statement, so that at least two later pages are read. */
  private static final int EVENTS = 2_500;
  private static final int BATCH = 1_000;

  private final TestSchema schema = new TestSchema();
  private SessionStore store;

  @BeforeEach
  void fillSession() {
    store = schema.store(builder -> builder);
    for (int first = 0; first < EVENTS; first += BATCH) {
      List<NewEvent> batch = new ArrayList<>();
      for (int i = first; i < Math.min(EVENTS, first + BATCH); i++) {
        batch.add(new NewEvent("e-" + i, "message", null, i % 2 == 0 ? "a" : "b", null,
            Json.of("{\"turn\":" + i + "}"), null));
      }
      store.events().appendAll(SESSION, batch);
    }
  }

  @AfterEach
  void dropSchema() {
    schema.close();
  }

  @Test
  @DisplayName("A revival returns every event after the latest summary, across pages")
  void revivalAcrossPages() {
    Summary summary = store.summaries().put(SESSION, NewSummary.of(1, 100, Json.of("{\"text\":\"so far\"}")));

    Revival revival = store.summaries().revive(SESSION);

    assertThat(revival.summary()).contains(summary);
    assertThat(revival.events()).hasSize(EVENTS - 100)
        .isEqualTo(store.events().read(SESSION, EventQuery.all().after(100)).items());
  }

  @Test
  @DisplayName("A revival without a summary returns the whole log, across pages")
  void revivalOfTheWholeLog() {
    Revival revival = store.summaries().revive(SESSION);

    assertThat(revival.summary()).isEmpty();
    assertThat(revival.events()).extracting(Event::seq).hasSize(EVENTS).isSorted().startsWith(1L).endsWith(
        (long) EVENTS);
  }

  @Test
  @DisplayName("An agent's revival returns that agent's events after the latest summary, across pages")
  void agentRevivalAcrossPages() {
    store.summaries().put(SESSION, NewSummary.of(1, 10, Json.of("{\"text\":\"so far\"}")));

    Revival revival = store.summaries().revive(SESSION, "a");

    assertThat(revival.events()).hasSize((EVENTS - 10) / 2)
        .isEqualTo(store.events().read(SESSION, EventQuery.all().after(10).agentId("a")).items());
  }

  @Test
  @DisplayName("A chapter returns its events between the previous summary and its own, across pages")
  void chapterAcrossPages() {
    Summary previous = store.summaries().put(SESSION, NewSummary.of(1, 100, Json.of("{\"text\":\"first\"}")));
    Summary closing = store.summaries().put(SESSION, NewSummary.of(101, 2_400, Json.of("{\"text\":\"second\"}")));

    Chapter chapter = store.summaries().chapter(SESSION, 2_400).orElseThrow();
    Chapter agentChapter = store.summaries().chapter(SESSION, 2_400, "b").orElseThrow();

    assertThat(chapter.summary()).isEqualTo(closing);
    assertThat(chapter.previous()).contains(previous);
    assertThat(chapter.events()).hasSize(2_300)
        .isEqualTo(store.events().read(SESSION, EventQuery.all().after(100).before(2_401)).items());
    assertThat(agentChapter.events()).hasSize(1_150)
        .isEqualTo(store.events().read(SESSION, EventQuery.all().after(100).before(2_401).agentId("b")).items());
  }
}
