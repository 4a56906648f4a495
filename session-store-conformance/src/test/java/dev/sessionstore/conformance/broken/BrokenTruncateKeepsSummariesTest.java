package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.Summary;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A store whose truncation cuts the events but forgets the summaries table: summaries covering removed events are
 * still listed afterwards.
 */
class BrokenTruncateKeepsSummariesTest extends BrokenStoreTest {

  BrokenTruncateKeepsSummariesTest() {
    super(SessionStoreConformance.Truncation.class, "truncationRemovesSummariesAtOrPastTheCut",
        "summaries after truncating at seq 5 (toSeq >= 5 must go)");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    Map<String, List<Summary>> leftOver = new ConcurrentHashMap<>();
    return ForwardingStore.of(correct)
        .withEvents(log -> new ForwardingEventLog(log) {
          @Override
          public int truncate(String sessionId, long fromSeq) {
            List<Summary> before = correct.summaries().list(sessionId);
            int removed = delegate.truncate(sessionId, fromSeq);
            List<Summary> gone = new ArrayList<>(before);
            gone.removeAll(correct.summaries().list(sessionId));
            leftOver.merge(sessionId, gone, (old, added) -> {
              List<Summary> all = new ArrayList<>(old);
              all.addAll(added);
              return all;
            });
            return removed;
          }
        })
        .withSummaries(summaries -> new ForwardingSummaries(summaries) {
          @Override
          public List<Summary> list(String sessionId) {
            List<Summary> all = new ArrayList<>(delegate.list(sessionId));
            all.addAll(leftOver.getOrDefault(sessionId, List.of()));
            all.sort(Comparator.comparingLong(Summary::toSeq));
            return all;
          }

          @Override
          public Optional<Summary> latest(String sessionId) {
            List<Summary> all = list(sessionId);
            return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
          }
        });
  }
}
