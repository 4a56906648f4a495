package dev.sessionstore.conformance.broken;

import dev.sessionstore.Chapter;
import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.Optional;

/**
 * A store whose chapters start at the previous summary's {@code toSeq} instead of after it, so neighbouring chapters
 * overlap by one event.
 */
class BrokenChapterOffByOneTest extends BrokenStoreTest {

  BrokenChapterOffByOneTest() {
    super(SessionStoreConformance.Summaries.class, "aChapterHoldsEventsAfterThePreviousSummary",
        "seqs of the chapter closed by toSeq 7 after toSeq 3");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withSummaries(summaries -> new ForwardingSummaries(summaries) {
      @Override
      public Optional<Chapter> chapter(String sessionId, long summaryToSeq) {
        return delegate.chapter(sessionId, summaryToSeq).map(chapter -> {
          long from = chapter.previous().map(previous -> previous.toSeq() - 1).orElse(0L);
          EventQuery query = EventQuery.all().after(from).before(summaryToSeq + 1);
          return new Chapter(chapter.summary(), chapter.previous(), correct.events().read(sessionId, query).items());
        });
      }
    });
  }
}
