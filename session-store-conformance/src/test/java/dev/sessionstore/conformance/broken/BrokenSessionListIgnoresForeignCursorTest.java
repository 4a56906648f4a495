package dev.sessionstore.conformance.broken;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.SessionPage;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/** A store that lists from the beginning when given a cursor it never returned, instead of rejecting it. */
class BrokenSessionListIgnoresForeignCursorTest extends BrokenStoreTest {

  BrokenSessionListIgnoresForeignCursorTest() {
    super(SessionStoreConformance.ArgumentRules.class, "sessionArgumentsAreChecked",
        "list with a cursor this store never returned: the error");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withSessions(sessions -> new ForwardingSessions(sessions) {
      @Override
      public SessionPage list(SessionQuery query) {
        try {
          return delegate.list(query);
        } catch (InvalidArgumentException badCursor) {
          return delegate.list(SessionQuery.all());
        }
      }
    });
  }
}
