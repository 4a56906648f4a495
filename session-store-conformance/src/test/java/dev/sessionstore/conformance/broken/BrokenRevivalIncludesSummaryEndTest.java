package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Revival;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * A store whose revival read starts at the latest summary's {@code toSeq} instead of after it ({@code seq >= toSeq}),
 * so the last event the summary already covers is replayed a second time.
 */
class BrokenRevivalIncludesSummaryEndTest extends BrokenStoreTest {

  BrokenRevivalIncludesSummaryEndTest() {
    super(SessionStoreConformance.Summaries.class, "reviveReturnsTheLatestSummaryAndOnlyLaterEvents",
        "seqs of the revival events after summary toSeq 5");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withSummaries(summaries -> new ForwardingSummaries(summaries) {
      @Override
      public Revival revive(String sessionId) {
        Revival revival = delegate.revive(sessionId);
        if (revival.summary().isEmpty()) {
          return revival;
        }
        long toSeq = revival.summary().get().toSeq();
        List<Event> events = new ArrayList<>(
            correct.events().read(sessionId, EventQuery.all().after(toSeq - 1).first(1)).items());
        events.addAll(revival.events());
        return new Revival(revival.summary(), events, revival.lastSeq());
      }
    });
  }
}
