package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionPage;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/** A store whose session listing ignores {@link SessionQuery#expiresBefore}: every session passes the filter. */
class BrokenExpiryFilterIgnoredTest extends BrokenStoreTest {

  BrokenExpiryFilterIgnoredTest() {
    super(new Caught(SessionStoreConformance.Sessions.class, "expiresBeforeExcludesTheInstantItself",
            "sessions expiring before the instant"),
        new Caught(SessionStoreConformance.Sessions.class, "expiresBeforePagesWithoutSkipOrRepeat",
            "expired sessions paged by cursor"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withSessions(sessions -> new ForwardingSessions(sessions) {
      @Override
      public SessionPage list(SessionQuery query) {
        return delegate.list(new SessionQuery(query.status(), query.agentId(), query.name(), query.tenant(),
            query.metadata(), null, query.limit(), query.cursor(), query.offset()));
      }
    });
  }
}
