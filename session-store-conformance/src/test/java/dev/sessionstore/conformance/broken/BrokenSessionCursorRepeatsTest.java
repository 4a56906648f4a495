package dev.sessionstore.conformance.broken;

import dev.sessionstore.Session;
import dev.sessionstore.SessionPage;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A store whose listing cursor is inclusive: each page starts again with the previous page's last session. */
class BrokenSessionCursorRepeatsTest extends BrokenStoreTest {

  BrokenSessionCursorRepeatsTest() {
    super(SessionStoreConformance.Sessions.class, "cursorPagingOverAnExactMultipleOfThePageSize",
        "pages of 3 over 9 sessions");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withSessions(sessions -> new ForwardingSessions(sessions) {
      /** The last session of the page that returned each cursor. */
      private final Map<String, Session> lastOfPage = new ConcurrentHashMap<>();

      @Override
      public SessionPage list(SessionQuery query) {
        Session repeated = query.cursor() == null ? null : lastOfPage.get(query.cursor());
        SessionPage page;
        if (repeated == null || query.limit().isEmpty() || query.limit().getAsInt() < 2) {
          page = delegate.list(query);
        } else {
          SessionPage rest = delegate.list(query.limit(query.limit().getAsInt() - 1));
          List<Session> items = new ArrayList<>();
          items.add(repeated);
          items.addAll(rest.items());
          page = new SessionPage(items, rest.nextCursor());
        }
        page.nextCursor().ifPresent(cursor -> lastOfPage.put(cursor, page.items().get(page.items().size() - 1)));
        return page;
      }
    });
  }
}
