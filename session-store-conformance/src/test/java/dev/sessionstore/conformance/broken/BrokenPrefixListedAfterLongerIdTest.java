package dev.sessionstore.conformance.broken;

import dev.sessionstore.Session;
import dev.sessionstore.SessionPage;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.spi.IdOrder;
import java.time.Clock;
import java.util.Comparator;

/**
 * A store whose listing puts a longer id before an id that is its prefix, as comparing ids padded to one width with a
 * filler above every character would: {@code p-ab} before {@code p-a}.
 */
class BrokenPrefixListedAfterLongerIdTest extends BrokenStoreTest {

  private static final Comparator<String> PREFIX_LAST = (a, b) -> {
    if (!a.equals(b) && a.startsWith(b)) {
      return -1;
    }
    if (!a.equals(b) && b.startsWith(a)) {
      return 1;
    }
    return IdOrder.compare(a, b);
  };

  BrokenPrefixListedAfterLongerIdTest() {
    super(SessionStoreConformance.Sessions.class, "aPrefixSortsBeforeTheLongerId",
        "listing order of ids tied on creation time, one a prefix of the next");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withSessions(sessions -> new ForwardingSessions(sessions) {
      @Override
      public SessionPage list(SessionQuery query) {
        SessionPage page = delegate.list(query);
        return new SessionPage(page.items().stream()
            .sorted(Comparator.comparing(Session::createdAt).thenComparing(Session::id, PREFIX_LAST))
            .toList(), page.nextCursor());
      }
    });
  }
}
