package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store whose truncation forgets where the events it keeps first name their runs (it drops every run position,
 * not only those of the cut events), so a fork made after a truncation takes no run.
 */
class BrokenForkOfTruncatedLogTakesNoRunsTest extends BrokenStoreTest {

  BrokenForkOfTruncatedLogTakesNoRunsTest() {
    super(new Caught(SessionStoreConformance.Forks.class, "forksOfForksAndOfTruncatedLogsTakeTheRunsTheirPrefixNames",
            "runs of a fork of the parent after the cut"),
        new Caught(SessionStoreConformance.Forks.class, "aForkAfterACutTakesTheRunsItsPrefixNamesNow",
            "runs of a fork that holds the run's first surviving event"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    RunlessForks runless = new RunlessForks();
    return runless.store(correctStore(clock)).withEvents(log -> new ForwardingEventLog(log) {
      @Override
      public int truncate(String sessionId, long fromSeq) {
        runless.forget(sessionId);
        return delegate.truncate(sessionId, fromSeq);
      }
    });
  }
}
