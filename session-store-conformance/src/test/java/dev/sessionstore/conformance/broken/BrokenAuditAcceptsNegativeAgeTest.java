package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.time.Duration;

/** A store that removes nothing for a negative age instead of rejecting it. */
class BrokenAuditAcceptsNegativeAgeTest extends BrokenStoreTest {

  BrokenAuditAcceptsNegativeAgeTest() {
    super(SessionStoreConformance.ArgumentRules.class, "modelCallArgumentsAreChecked",
        "deleteOlderThan(sessionId, -1s): the error");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withModelCalls(audit -> new ForwardingModelCallAudit(audit) {
      @Override
      public int deleteOlderThan(String sessionId, Duration age) {
        if (age != null && age.isNegative()) {
          return 0;
        }
        return delegate.deleteOlderThan(sessionId, age);
      }
    });
  }
}
