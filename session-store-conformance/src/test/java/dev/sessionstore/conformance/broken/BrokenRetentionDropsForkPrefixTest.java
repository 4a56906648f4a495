package dev.sessionstore.conformance.broken;

import dev.sessionstore.ForkOrigin;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.RetentionReport;
import dev.sessionstore.Session;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * A store whose retention takes the forks' shared events with their parent: when a parent loses its first events
 * (a cut) or is deleted, every fork of it loses the log it showed, as if it read the parent's rows in place.
 */
class BrokenRetentionDropsForkPrefixTest extends BrokenStoreTest {

  BrokenRetentionDropsForkPrefixTest() {
    super(new Caught(SessionStoreConformance.Retention.class, "aForkKeepsItsPrefixWhenTheParentIsCut",
            "after its parent was cut"),
        new Caught(SessionStoreConformance.Retention.class, "aForkKeepsItsPrefixWhenTheParentIsDeleted",
            "after its parent was deleted"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withRetention(retention -> new ForwardingRetention(retention) {
      @Override
      public RetentionReport apply(RetentionPolicy policy) {
        List<Session> before = correct.sessions().list(SessionQuery.all()).items();
        RetentionReport report = delegate.apply(policy);
        for (Session fork : before) {
          Optional<String> parent = Optional.ofNullable(fork.forkedFrom()).map(ForkOrigin::sessionId);
          if (parent.isPresent() && correct.sessions().find(fork.id()).isPresent() && lostItsHead(correct,
              parent.get())) {
            correct.events().truncate(fork.id(), 1);
          }
        }
        return report;
      }
    });
  }

  private static boolean lostItsHead(SessionStore store, String sessionId) {
    return store.sessions().find(sessionId).isEmpty()
        || store.events().read(sessionId, dev.sessionstore.EventQuery.all().limit(1)).items().stream()
            .anyMatch(first -> first.seq() > 1);
  }
}
