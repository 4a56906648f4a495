package dev.sessionstore.conformance.broken;

import dev.sessionstore.Chapter;
import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Summaries;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;
import java.util.Optional;

/**
 * A store whose chapters start at the previous summary's {@code toSeq} instead of after it, so neighbouring chapters
 * overlap by one event.
 */
class BrokenChapterOffByOneTest extends BrokenStoreTest {

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore real = InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
    Summaries broken = new ForwardingSummaries(real.summaries()) {
      @Override
      public Optional<Chapter> chapter(String sessionId, long summaryToSeq) {
        return delegate.chapter(sessionId, summaryToSeq).map(chapter -> {
          long from = chapter.previous().map(previous -> previous.toSeq() - 1).orElse(0L);
          EventQuery query = EventQuery.all().after(from).before(summaryToSeq + 1);
          return new Chapter(chapter.summary(), chapter.previous(), real.events().read(sessionId, query).items());
        });
      }
    };
    return new ForwardingStore(real) {
      @Override
      public Summaries summaries() {
        return broken;
      }
    };
  }

  @Override
  protected Class<?> group() {
    return SessionStoreConformance.Summaries.class;
  }

  @Override
  protected String failingTest() {
    return "aChapterHoldsEventsAfterThePreviousSummary";
  }

  @Override
  protected String failureMentions() {
    return "seqs of the chapter closed by toSeq 7 after toSeq 3";
  }
}
