package dev.sessionstore.conformance.broken;

import dev.sessionstore.Chapter;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.Optional;

/** A store that answers a chapter at summaryToSeq 0 with "no such chapter" instead of rejecting the seq. */
class BrokenChapterAcceptsSeqZeroTest extends BrokenStoreTest {

  BrokenChapterAcceptsSeqZeroTest() {
    super(SessionStoreConformance.ArgumentRules.class, "summaryArgumentsAreChecked",
        "chapter at summaryToSeq 0: the error");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withSummaries(summaries -> new ForwardingSummaries(summaries) {
      @Override
      public Optional<Chapter> chapter(String sessionId, long summaryToSeq) {
        return summaryToSeq < 1 ? Optional.empty() : delegate.chapter(sessionId, summaryToSeq);
      }
    });
  }
}
